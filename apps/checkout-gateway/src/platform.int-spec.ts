import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DependencyWatch } from '@payments/platform-health';
import { startTestApp } from '@payments/testing';

import { gatewayApp } from './app';

describe('gateway platform surface', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    ({ app } = await startTestApp({ ...gatewayApp, kafkaConsumer: false }));
  });

  afterAll(() => app.close());

  it('is live, and ready with its schema and topics in place, saying what it saw of PostgreSQL and Kafka', async () => {
    expect((await app.inject({ method: 'GET', url: '/health/live' })).json()).toMatchObject({
      status: true,
      data: { status: 'up' },
    });
    // Readiness reports what the watch last saw, and nothing before its first look has ended: on
    // a busy machine the first request can come first, so one look is made to end here.
    await app.get(DependencyWatch).look();
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toEqual({
      schema: { status: 'up' },
      topics: { status: 'up' },
      database: { status: 'up' },
      kafka: { status: 'up' },
    });
  });

  it('exposes Prometheus metrics, including request latency by route', async () => {
    await app.inject({ method: 'GET', url: '/health/live' });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/health\/live"[^}]*\} \d+/);
    expect(response.body).toContain('process_cpu_seconds_total');
  });

  it('publishes an OpenAPI 3 document whose schemas come from the validating DTO classes', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs-json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/business'].get.security).toEqual([{ apiKey: [] }, { apiSecret: [] }]);
    expect(document.paths['/business'].get.responses['200'].content['application/json'].schema.properties.data).toEqual(
      {
        $ref: '#/components/schemas/BusinessProfileResponse',
      },
    );
    // The enum below exists only in the class-validator rule (@IsIn) of the response class.
    expect(document.components.schemas.BusinessProfileResponse.properties.mode).toMatchObject({
      enum: ['test', 'live'],
    });
    expect(document.components.schemas.ErrorEnvelope).toBeDefined();
  });

  it('serves a readable docs page', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('swagger-ui');
  });

  it('answers an unknown route in the envelope', async () => {
    // The envelope itself is platform-envelope's to test; this checks the gateway is wired to it.
    const unknown = await app.inject({ method: 'GET', url: '/no/such/route' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: false, statusCode: 404, data: { code: 'ROUTE_NOT_FOUND' } });
  });

  it('echoes the caller request id, or makes one', async () => {
    const given = await app.inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'req-123' } });
    expect(given.headers['x-request-id']).toBe('req-123');
    const made = await app.inject({ method: 'GET', url: '/health/live' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
