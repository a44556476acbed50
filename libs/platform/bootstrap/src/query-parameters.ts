import { INestApplication } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type {
  OpenAPIObject,
  ParameterObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

type DtoClass = new (...args: never[]) => object;

/**
 * The DTO class each handler takes its whole query string as (`@Query() query: SomeQuery`), by
 * handler name, which is also the operation's id (see setupApiDocs).
 */
function queryDtosByHandler(app: INestApplication): Map<string, DtoClass> {
  const found = new Map<string, DtoClass>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const handler of Object.getOwnPropertyNames(prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, metatype, handler) ?? {}) as Record<
          string,
          { index: number; data?: unknown }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', prototype, handler) ?? []) as DtoClass[];
        for (const [key, arg] of Object.entries(args)) {
          if (key.startsWith(`${RouteParamtypes.QUERY}:`) && arg.data === undefined && types[arg.index]) {
            found.set(handler, types[arg.index]);
          }
        }
      }
    }
  }
  return found;
}

/**
 * Documents each operation's query parameters from the rules of the DTO its handler validates
 * the query string with, one parameter per property: the same rules that refuse a bad value.
 */
export function documentQueryParameters(
  app: INestApplication,
  document: OpenAPIObject,
  schemas: Record<string, SchemaObject>,
): void {
  const dtos = queryDtosByHandler(app);
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.post, item.put, item.patch, item.delete]) {
      const dto = operation?.operationId ? dtos.get(operation.operationId) : undefined;
      const schema = dto ? schemas[dto.name] : undefined;
      if (!operation || !schema?.properties) continue;
      const required = new Set(schema.required ?? []);
      const documented = new Set((operation.parameters ?? []).map((parameter) => (parameter as ParameterObject).name));
      const parameters: ParameterObject[] = Object.entries(schema.properties)
        .filter(([name]) => !documented.has(name))
        .map(([name, property]) => {
          const { description, ...rest } = property as SchemaObject;
          return {
            name,
            in: 'query',
            required: required.has(name),
            ...(description ? { description } : {}),
            schema: rest,
          };
        });
      operation.parameters = [...(operation.parameters ?? []), ...parameters];
    }
  }
}
