import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { PathsObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { WebhookDoc } from '@payments/contracts';
import { envelopeSchemas, rateLimitedResponse } from '@payments/platform-envelope';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { ISchemaConverters } from 'class-validator-jsonschema/build/defaultConverters';

import { documentQueryParameters } from './query-parameters';

export interface ApiDocsOptions {
  title: string;
  description: string;
  /** Routes served outside Nest's router (see `envelopeOperation`). */
  paths?: PathsObject;
  /** Webhooks the app's partners receive (OpenAPI 3.1 `webhooks`), with the schemas they name. */
  webhooks?: { catalog: Record<string, WebhookDoc>; schemas: Record<string, unknown> };
}

// Where class-transformer keeps @Type metadata; its typings do not export the module.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

/** Our own class-validator rules, described in the schema like the built-in ones. */
const additionalConverters: ISchemaConverters = {
  maxCharacters: (meta) => ({ maxLength: meta.constraints[0] as number }),
  isKoboAmount: { type: 'string', pattern: '^[1-9][0-9]{0,14}$', description: 'kobo, as a string' },
  isCardNumber: { type: 'string', pattern: '^[0-9]{12,19}$', description: 'digits only; Luhn-checked' },
  isCalendarDate: { type: 'string', format: 'date' },
  isInstant: { type: 'string', format: 'date-time', description: 'ISO 8601: a date (midnight UTC) or a date-time' },
  // Rules on the content of a JSON object, which the schema cannot say more precisely.
  isSmallJson: { type: 'object' },
  hasOnlyWholeNumbers: { type: 'object' },
  // Within the enum its items already list: `*` stands alone.
  isEventFilter: {},
};

/**
 * Serves the OpenAPI 3 document at /docs-json and a readable page at /docs. Request and
 * response schemas are generated from the class-validator rules of the DTO classes that
 * validate requests, so the published contract cannot drift from the code.
 */
export function setupApiDocs(app: NestFastifyApplication, options: ApiDocsOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'apiKey')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-secret' }, 'apiSecret')
    .build();
  // A route's operationId is its handler's name (createOutlet, listDeliveries): code generators
  // name their methods after it, so it must not change when a controller is split or renamed.
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller: string, handler: string) => handler,
  });
  document.paths = { ...document.paths, ...options.paths };
  const dtoSchemas = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    additionalConverters,
    // Nested DTOs (@ValidateNested with @Type) point at their own schemas.
    classTransformerMetadataStorage: defaultMetadataStorage,
  }) as Record<string, SchemaObject>;
  documentQueryParameters(app, document, dtoSchemas);
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      ...dtoSchemas,
      ...envelopeSchemas,
      ...(options.webhooks?.schemas as Record<string, SchemaObject> | undefined),
    },
  };
  if (options.webhooks) Object.assign(document, { webhooks: webhookOperations(options.webhooks.catalog) });
  document.components.responses = { ...document.components.responses, RateLimited: rateLimitedResponse };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as { security?: unknown[]; responses?: Record<string, unknown> }[]) {
      if (typeof operation !== 'object' || operation === null || Array.isArray(operation)) continue;
      // A route documented without keys takes none (the hosted page, POS terminals): say so.
      operation.security ??= [];
      // Every 429 is the same answer, with the same headers: described once.
      if (operation.responses?.['429']) operation.responses['429'] = { $ref: '#/components/responses/RateLimited' };
    }
  }
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
  return document;
}

/** Each webhook as OpenAPI describes one: the POST we send to the partner's URL, with an example body. */
function webhookOperations(catalog: Record<string, WebhookDoc>) {
  return Object.fromEntries(
    Object.entries(catalog).map(([event, doc]) => [
      event,
      {
        post: {
          summary: doc.summary,
          operationId: `Webhook_${event.replace(/[^A-Za-z0-9]+/g, '_')}`,
          tags: ['webhooks'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['event', 'eventData', 'signature'],
                  properties: {
                    event: { type: 'string', const: event },
                    eventData: { $ref: `#/components/schemas/${doc.eventData}` },
                    signature: {
                      type: 'string',
                      description: 'Hex HMAC-SHA256 of the minified eventData, keyed with your API key',
                    },
                    previousSignature: {
                      type: 'string',
                      description: 'The same with the key you rolled, while its grace period lasts: accept either',
                    },
                  },
                },
                example: { event, eventData: doc.example, signature: '9f2c5e…' },
              },
            },
          },
          // We sign the body; your endpoint takes no keys of ours.
          security: [],
          responses: { '200': { description: 'Received: answer 2xx quickly and process asynchronously' } },
        },
      },
    ]),
  );
}
