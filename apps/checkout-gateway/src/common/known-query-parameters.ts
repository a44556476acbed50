import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ValidationFailedError } from '@payments/platform-envelope';
import { getMetadataStorage } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';

type Handler = (...args: never[]) => unknown;

/**
 * Refuses, with 422 VALIDATION_FAILED naming each, the query parameters a route does not take.
 * The global ValidationPipe drops them unseen (whitelist without forbidNonWhitelisted: every
 * other route, and every body, still accepts fields it does not know), so a partner's `page`
 * or misspelt filter would otherwise answer as if it had not been sent. A route takes the
 * properties of the DTO it reads its whole query into (`@Query() query: SomeQuery`) and the
 * names it reads one by one (`@Query('name')`). Runs after the guards, before the pipes.
 */
@Injectable()
export class KnownQueryParameters implements NestInterceptor {
  private readonly taken = new WeakMap<Handler, ReadonlySet<string>>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const query = context.switchToHttp().getRequest<FastifyRequest>().query;
    const taken = this.takenBy(context.getClass(), context.getHandler() as Handler);
    const unknown = Object.keys(query ?? {}).filter((name) => !taken.has(name));
    if (unknown.length > 0) {
      throw new ValidationFailedError(
        unknown.map((field) => ({ field, messages: [`${field} is not a query parameter of this route`] })),
      );
    }
    return next.handle();
  }

  private takenBy(controller: new (...args: never[]) => unknown, handler: Handler): ReadonlySet<string> {
    let taken = this.taken.get(handler);
    if (!taken) {
      taken = queryParametersOf(controller, handler);
      this.taken.set(handler, taken);
    }
    return taken;
  }
}

/** The query parameters a handler reads, from its `@Query` parameters' metadata. */
export function queryParametersOf(controller: object, handler: Handler): ReadonlySet<string> {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata(
    'design:paramtypes',
    (controller as { prototype: object }).prototype,
    handler.name,
  ) ?? []) as Handler[];
  const names = new Set<string>();
  for (const [key, arg] of Object.entries(args)) {
    if (!key.startsWith(`${RouteParamtypes.QUERY}:`)) continue;
    if (typeof arg.data === 'string') names.add(arg.data);
    else if (types[arg.index]) {
      for (const rule of getMetadataStorage().getTargetValidationMetadatas(types[arg.index], '', false, false)) {
        names.add(rule.propertyName);
      }
    }
  }
  return names;
}
