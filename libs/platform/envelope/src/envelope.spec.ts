import { Body, Controller, Get, Header, Logger, Module, Param, Post } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsString, MaxLength, ValidateNested } from 'class-validator';

import { Answers } from './api-docs';
import { ApiExceptionFilter } from './api-exception.filter';
import { DomainError } from './domain-error';
import { EnvelopingFastifyAdapter, RawResponse, SuccessMessage } from './success-envelope';
import { createValidationPipe } from './validation.pipe';

class Address {
  @IsString()
  city!: string;
}

class CreateThing {
  @MaxLength(5)
  @IsString({ message: 'accountName is required' })
  accountName!: string;

  @IsEmail()
  email!: string;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

@Controller('things')
class ThingsController {
  @Post()
  @SuccessMessage('Thing created')
  create(@Body() body: CreateThing) {
    return { accountName: body.accountName };
  }

  @Post('answered')
  @Answers(Address, 'Thing answered', 404, 422)
  answered() {
    return { city: 'Lagos' };
  }

  @Get(':name/plain')
  plain(@Param('name') name: string) {
    return { name };
  }

  @Post('nothing')
  nothing() {
    return undefined;
  }

  @Get('text')
  @RawResponse()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  text() {
    return 'things_total 3\n';
  }

  @Get('missing')
  missing() {
    throw new DomainError('OUTLET_NOT_FOUND', 'Outlet 01ABC not found', 404);
  }

  @Get('database-restarting')
  databaseRestarting() {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  }

  @Get('broken')
  broken() {
    throw new Error('connection string postgres://secret@db leaked');
  }
}

@Module({
  controllers: [ThingsController],
  providers: [
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
class ThingsModule {}

describe('response envelope', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const adapter = new EnvelopingFastifyAdapter({ bodyLimit: 16 * 1024 });
    app = await NestFactory.create<NestFastifyApplication>(ThingsModule, adapter, { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  /** The error envelope in full: the HTTP status repeated as statusCode, a message, and the code. */
  const refusal = (statusCode: number, message: string, code: string) => ({
    status: false,
    statusCode,
    message,
    data: { code },
  });
  const post = (payload: string, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/things', payload, headers: { 'content-type': contentType } });

  it('wraps a success in {status, statusCode, message, data}', async () => {
    const response = await post(
      JSON.stringify({ accountName: 'Ada', email: 'ada@example.com', address: { city: 'Lagos' } }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      status: true,
      statusCode: 201,
      message: 'Thing created',
      data: { accountName: 'Ada' },
    });
  });

  it('answers a route declared with Answers 200, a POST too, with its message, and documents its answers', async () => {
    const response = await app.inject({ method: 'POST', url: '/things/answered' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ statusCode: 200, message: 'Thing answered', data: { city: 'Lagos' } });
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    expect(Object.keys(document.paths['/things/answered'].post!.responses).sort()).toEqual(['200', '404', '422']);
  });

  it('gives a route without a message of its own the general one, and an empty answer empty data', async () => {
    const plain = await app.inject({ method: 'GET', url: '/things/ada/plain' });
    expect(plain.json()).toEqual({
      status: true,
      statusCode: 200,
      message: 'Request successful',
      data: { name: 'ada' },
    });
    const nothing = await app.inject({ method: 'POST', url: '/things/nothing' });
    expect(nothing.json()).toEqual({ status: true, statusCode: 201, message: 'Request successful', data: {} });
  });

  it('leaves a raw answer as the handler wrote it', async () => {
    const response = await app.inject({ method: 'GET', url: '/things/text' });
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('things_total 3\n');
  });

  it('answers 422 naming every bad field, nested ones by path', async () => {
    const response = await post(JSON.stringify({ accountName: 'far too long', email: 'nope', address: { city: 7 } }));
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.status).toBe(false);
    expect(body.statusCode).toBe(422);
    expect(body.data.code).toBe('VALIDATION_FAILED');
    expect(body.data.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'accountName',
      'address.city',
      'email',
    ]);
  });

  it('uses the field message itself when only one thing is wrong', async () => {
    const response = await post(JSON.stringify({ email: 'ada@example.com', address: { city: 'Lagos' } }));
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('accountName is required');
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await post('{"accountName": ');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      status: false,
      statusCode: 400,
      message: expect.stringMatching(/not valid JSON/),
      data: { code: 'MALFORMED_JSON' },
    });
  });

  it('answers 422 for a body nested deeper than any request of ours, however deep', async () => {
    for (const depth of [33, 900]) {
      const response = await post('{"address":'.repeat(depth) + '{}' + '}'.repeat(depth));
      expect(response.statusCode).toBe(422);
      expect(response.json().data.errors).toEqual([
        {
          field: 'address'.concat('.address'.repeat(31)),
          messages: [expect.stringMatching(/must not nest more than 32 levels deep$/)],
        },
      ]);
    }
  });

  it('answers 413 for a body over the limit', async () => {
    const response = await post(JSON.stringify({ accountName: 'x'.repeat(20_000) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual(refusal(413, 'Request body is too large', 'PAYLOAD_TOO_LARGE'));
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await post('accountName=Ada', 'text/csv');
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ status: false, data: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('answers 404 in the envelope for an unknown route', async () => {
    const response = await app.inject({ method: 'GET', url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(refusal(404, 'Route not found', 'ROUTE_NOT_FOUND'));
  });

  it('maps a domain error to its status and code', async () => {
    const response = await app.inject({ method: 'GET', url: '/things/missing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(refusal(404, 'Outlet 01ABC not found', 'OUTLET_NOT_FOUND'));
  });

  it('answers 503, safe to retry, when the database is briefly away, and logs which dependency was', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const response = await app.inject({ method: 'GET', url: '/things/database-restarting' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: false, statusCode: 503, data: { code: 'SERVICE_UNAVAILABLE' } });
    expect(warn).toHaveBeenCalledWith(
      { err: expect.objectContaining({ code: expect.any(String) }), requestId: expect.any(String) },
      'answered 503: a dependency is briefly unavailable',
    );
    warn.mockRestore();
  });

  it('answers 500 with an error id and no internals', async () => {
    const response = await app.inject({ method: 'GET', url: '/things/broken' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.data.code).toBe('INTERNAL_ERROR');
    expect(body.data.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).not.toMatch(/postgres|secret|Error:|at /);
  });
});
