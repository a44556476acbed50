import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type {
  OperationObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type DtoClass = Function;

import { SuccessMessage } from './success-envelope';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** OpenAPI schemas of the envelope itself, merged into every document. */
export const envelopeSchemas: Record<string, SchemaObject> = {
  ErrorData: {
    type: 'object',
    required: ['code'],
    properties: {
      code: { type: 'string', description: 'Stable error code, e.g. OUTLET_NOT_FOUND' },
      errors: {
        type: 'array',
        description: 'On 422 VALIDATION_FAILED, always: every offending field',
        items: {
          type: 'object',
          properties: { field: { type: 'string' }, messages: { type: 'array', items: { type: 'string' } } },
        },
      },
      errorId: { type: 'string', description: 'On 500: quote it to support' },
    },
  },
  ErrorEnvelope: {
    type: 'object',
    required: ['status', 'statusCode', 'message', 'data'],
    properties: {
      status: { type: 'boolean', enum: [false] },
      statusCode: { type: 'integer' },
      message: { type: 'string' },
      data: schemaRef('ErrorData'),
    },
  },
};

/** A 200 envelope whose `data` is `dto`. */
function okEnvelopeSchema(dto: DtoClass): SchemaObject {
  return {
    type: 'object',
    required: ['status', 'statusCode', 'message', 'data'],
    properties: {
      status: { type: 'boolean', enum: [true] },
      statusCode: { type: 'integer', enum: [200] },
      message: { type: 'string' },
      data: schemaRef(dto.name),
    },
  };
}

/** Documents a 200 envelope whose `data` is `dto`; the schema comes from its class-validator rules. */
export function ApiEnvelopeOk(dto: DtoClass, description = 'Success') {
  return applyDecorators(ApiResponse({ status: 200, description, schema: okEnvelopeSchema(dto) }));
}

/**
 * Describes a route served outside Nest's router, which Swagger cannot see, with the same
 * schemas the decorators above give every other route.
 */
export function envelopeOperation(route: {
  operationId: string;
  summary: string;
  tag: string;
  body: DtoClass;
  ok: DtoClass;
  errors: number[];
}): OperationObject {
  const json = (schema: SchemaObject | ReferenceObject) => ({ 'application/json': { schema } });
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    requestBody: { required: true, content: json(schemaRef(route.body.name)) },
    responses: {
      200: { description: 'Success', content: json(okEnvelopeSchema(route.ok)) },
      ...Object.fromEntries(
        route.errors.map((status) => [
          status,
          { description: 'Error envelope', content: json(schemaRef('ErrorEnvelope')) },
        ]),
      ),
    },
  };
}

const documented = (verb: (path?: string) => MethodDecorator) => (path: string, summary: string) =>
  applyDecorators(verb(path), ApiOperation({ summary }));

/**
 * A route with the one-line summary the API reference gives it: `@Route.post('internal', 'Move
 * money …')`. The summary is not optional, so no partner route goes undocumented. `''` is the
 * controller's own path.
 */
export const Route = {
  get: documented(Get),
  post: documented(Post),
  put: documented(Put),
  patch: documented(Patch),
  delete: documented(Delete),
};

/**
 * What a route answers: 200 with the envelope whose `data` is a `dto` and whose message is
 * `message` (a POST too: the envelope says what happened), or the error envelope with one of
 * `errors`; documented as such.
 */
export function Answers<Dto>(dto: new (...args: never[]) => Dto, message: string, ...errors: number[]) {
  const decorate = applyDecorators(
    SuccessMessage(message),
    ApiEnvelopeErrors(...errors),
    ApiEnvelopeOk(dto),
    HttpCode(200),
  );
  // Typed so that a route which returns anything but `dto` does not compile: the documented
  // answer and the real one cannot drift, and the route's signature need not repeat it.
  return <Handler extends (...args: never[]) => Dto | Promise<Dto>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<Handler>,
  ): void => decorate(target, key, descriptor);
}

/** Documents error answers of a route, all in the error envelope. */
export function ApiEnvelopeErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: 'Error envelope', schema: schemaRef('ErrorEnvelope') }),
    ),
  );
}

/** The IETF draft's fields, sent with every answer a rate limit covers (docs/rate-limits.md). */
export const rateLimitHeaderDocs = {
  'RateLimit-Policy': {
    description: 'The quota and its window in seconds, e.g. "partner-api";q=6000;w=60',
    schema: { type: 'string' as const },
  },
  RateLimit: {
    description: 'Requests left and seconds until the window starts again, e.g. "partner-api";r=5999;t=42',
    schema: { type: 'string' as const },
  },
} as const;

/**
 * Every 429 of the API, documented once in `components.responses` (the document's setup points
 * each route's 429 at it): RATE_LIMITED in the envelope, and when to try again.
 */
export const rateLimitedResponse = {
  description: 'RATE_LIMITED: over the rate limit; retry after Retry-After seconds',
  headers: {
    'Retry-After': { description: 'Seconds until the window starts again', schema: { type: 'integer' as const } },
    ...rateLimitHeaderDocs,
  },
  content: { 'application/json': { schema: schemaRef('ErrorEnvelope') } },
};

/** A route that answers 429 RATE_LIMITED over its rate limit. */
export function ApiRateLimited() {
  return ApiEnvelopeErrors(429);
}

/** The route needs `x-api-key` and `x-api-secret`, and counts against the key's rate limit. */
export function ApiKeyProtected() {
  return applyDecorators(ApiSecurity('apiKey'), ApiSecurity('apiSecret'), ApiEnvelopeErrors(401), ApiRateLimited());
}
