import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { PathsObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { envelopeSchemas } from '@payments/platform-envelope';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { ISchemaConverters } from 'class-validator-jsonschema/build/defaultConverters';

export interface ApiDocsOptions {
  title: string;
  description: string;
  /** Routes served outside Nest's router (see `envelopeOperation`). */
  paths?: PathsObject;
}

/** Our own class-validator rules, described in the schema like the built-in ones. */
const additionalConverters: ISchemaConverters = {
  maxCharacters: (meta) => ({ maxLength: meta.constraints[0] as number }),
  isKoboAmount: { type: 'string', pattern: '^[1-9][0-9]{0,14}$', description: 'kobo, as a string' },
};

/**
 * Serves the OpenAPI 3 document at /docs-json and a readable page at /docs. Request and
 * response schemas are generated from the class-validator rules of the DTO classes that
 * validate requests, so the published contract cannot drift from the code.
 */
export function setupApiDocs(app: NestFastifyApplication, options: ApiDocsOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'apiKey')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-secret' }, 'apiSecret')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.paths = { ...document.paths, ...options.paths };
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      ...(validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/', additionalConverters }) as Record<
        string,
        SchemaObject
      >),
      ...envelopeSchemas,
    },
  };
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
  return document;
}
