import { Body, Controller, Module, Post } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsString } from 'class-validator';

import { ApiExceptionFilter } from './api-exception.filter';
import { AcceptsFormPosts } from './route-config';
import { EnvelopingFastifyAdapter, RawResponse } from './success-envelope';
import { createValidationPipe } from './validation.pipe';

class Greeting {
  @IsString()
  name!: string;
}

@Controller('greetings')
class GreetingsController {
  @Post()
  create(@Body() greeting: Greeting) {
    return { name: greeting.name };
  }

  @Post('ping')
  ping() {
    return { pong: true };
  }

  /** A page's `<form method="post">`, as the sandbox bank's 3-D Secure page posts. */
  @Post('form')
  @RawResponse()
  @AcceptsFormPosts()
  form(@Body() fields: Record<string, unknown>) {
    return `decision=${String(fields.decision)}`;
  }
}

@Module({
  controllers: [GreetingsController],
  providers: [
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
class GreetingsModule {}

describe('request bodies that are not JSON', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const adapter = new EnvelopingFastifyAdapter({ bodyLimit: 16 * 1024 });
    app = await NestFactory.create<NestFastifyApplication>(GreetingsModule, adapter, { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  const post = (url: string, payload: string, contentType?: string) =>
    app.inject({ method: 'POST', url, payload, headers: contentType ? { 'content-type': contentType } : {} });
  const json = JSON.stringify({ name: 'Ada' });
  const unsupported = {
    status: false,
    statusCode: 415,
    message: 'A request body must be JSON, sent with Content-Type: application/json',
    data: { code: 'UNSUPPORTED_MEDIA_TYPE' },
  };

  it.each([
    ['text/plain', json],
    ['text/plain; charset=utf-8', json],
    ['application/x-www-form-urlencoded', json],
    ['application/x-www-form-urlencoded', 'name=Ada'],
    ['multipart/form-data; boundary=x', '--x--'],
    [undefined, json],
  ])('answers 415 in the envelope to a body sent as %s, rather than reading no fields from it', async (type, body) => {
    for (const url of ['/greetings', '/greetings/ping']) {
      const response = await post(url, body, type);
      expect([response.statusCode, response.json()]).toEqual([415, unsupported]);
    }
  });

  it('reads a JSON body', async () => {
    const response = await post('/greetings', json, 'application/json; charset=utf-8');
    expect([response.statusCode, response.json().data]).toEqual([201, { name: 'Ada' }]);
  });

  it('answers an empty body that says it is JSON as malformed JSON, as docs/api.md says', async () => {
    const response = await post('/greetings/ping', '', 'application/json');
    expect([response.statusCode, response.json().data.code]).toEqual([400, 'MALFORMED_JSON']);
  });

  it('takes a request without a body whatever other type it names', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      expect((await post('/greetings/ping', '', type)).json().data).toEqual({ pong: true });
      const response = await post('/greetings', '', type);
      expect([response.statusCode, response.json().data.errors]).toEqual([
        422,
        [{ field: 'name', messages: ['name must be a string'] }],
      ]);
    }
  });

  it('reads a form post on a route that takes them, and JSON there too', async () => {
    const form = await post('/greetings/form', 'decision=approve', 'application/x-www-form-urlencoded');
    expect([form.statusCode, form.body]).toEqual([201, 'decision=approve']);
    const sentAsJson = await post('/greetings/form', JSON.stringify({ decision: 'decline' }), 'application/json');
    expect(sentAsJson.body).toBe('decision=decline');
    expect((await post('/greetings/form', 'decision=approve', 'text/plain')).statusCode).toBe(415);
  });
});
