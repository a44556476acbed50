import { Body, Controller, Get, Module, Post, UseGuards } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  apiError,
  ApiExceptionFilter,
  createValidationPipe,
  EnvelopingFastifyAdapter,
} from '@payments/platform-envelope';
import { HeaderSink, writeRateLimitHeaders } from '@payments/platform-rate-limit';
import { IsString } from 'class-validator';

import { ClientAddressAdmission, LimitedPerClientAddress } from '../rate-limits/client-address-limit.guard';
import { GatewayRateLimits } from '../rate-limits/gateway-rate-limits';
import { ApiKeyGuard, CurrentBusiness, PartnerController } from './api-key.guard';
import { Business } from './business.entity';
import { BusinessesService } from './businesses.service';
import { PartnerAdmission } from './partner-admission';

class Widget {
  @IsString()
  name!: string;
}

@PartnerController('widgets', 'widgets')
class WidgetsController {
  @Post()
  create(@Body() widget: Widget, @CurrentBusiness() business: Business) {
    return { name: widget.name, businessId: business.id };
  }

  @Get()
  list() {
    return { items: [] };
  }
}

/** A keyed route outside PartnerController: its guard checks it, after the body. */
@Controller('guarded')
@UseGuards(ApiKeyGuard)
class GuardedController {
  @Get()
  show(@CurrentBusiness() business: Business) {
    return { businessId: business.id };
  }
}

@Controller('page')
@LimitedPerClientAddress()
class PageController {
  @Post()
  pay(@Body() widget: Widget) {
    return widget;
  }
}

/** A limiter of `quota` requests per key, counting what it admits as the real one answers. */
class CountingLimits {
  readonly counted: string[] = [];
  quota = 100;

  admitPartner(reply: HeaderSink, apiKey: string): Promise<void> {
    return this.count(reply, 'partner-api', apiKey);
  }

  admitPageVisitor(reply: HeaderSink, address: string): Promise<void> {
    return this.count(reply, 'hosted-page', address);
  }

  private async count(reply: HeaderSink, name: string, key: string): Promise<void> {
    this.counted.push(`${name}:${key}`);
    const used = this.counted.filter((counted) => counted === `${name}:${key}`).length;
    const policy = { name, quota: this.quota, windowSeconds: 60 };
    const allowed = used <= this.quota;
    writeRateLimitHeaders(reply, { policy, allowed, remaining: Math.max(0, this.quota - used), resetSeconds: 30 });
    if (!allowed) throw apiError('RATE_LIMITED', 'Too many requests', { retryAfterSeconds: 30 });
  }
}

const business = { id: 'BUS-1' } as Business;
const keys = { 'x-api-key': 'pk_test_1', 'x-api-secret': 'sk_test_1' };

describe('admitting a partner request before its body is read', () => {
  let app: NestFastifyApplication;
  const limits = new CountingLimits();

  beforeAll(async () => {
    const businesses = {
      authenticate: async (key: string, secret: string) =>
        key === 'pk_test_1' && secret === 'sk_test_1' ? business : null,
    };
    @Module({
      controllers: [WidgetsController, GuardedController, PageController],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: BusinessesService, useValue: businesses },
        { provide: GatewayRateLimits, useValue: limits },
        PartnerAdmission,
        ApiKeyGuard,
        ClientAddressAdmission,
      ],
    })
    class TestModule {}
    const adapter = new EnvelopingFastifyAdapter({ bodyLimit: 1024 });
    app = await NestFactory.create<NestFastifyApplication>(TestModule, adapter, { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());
  beforeEach(() => {
    limits.counted.length = 0;
    limits.quota = 100;
  });

  const post = (payload: string, headers: Record<string, string> = keys, url = '/widgets') =>
    app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });

  it.each([
    ['400 MALFORMED_JSON', '{"name": ', 'application/json', 400, 'MALFORMED_JSON'],
    ['413 PAYLOAD_TOO_LARGE', JSON.stringify({ name: 'x'.repeat(2000) }), 'application/json', 413, 'PAYLOAD_TOO_LARGE'],
    ['415 UNSUPPORTED_MEDIA_TYPE', JSON.stringify({ name: 'x' }), 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['422 VALIDATION_FAILED', JSON.stringify({ name: 7 }), 'application/json', 422, 'VALIDATION_FAILED'],
  ])(
    'answers %s to a keyed route with the key RateLimit headers, counted once',
    async (_case, body, type, status, code) => {
      const response = await post(body, { ...keys, 'content-type': type });
      expect([response.statusCode, response.json().data.code]).toEqual([status, code]);
      expect(response.headers['ratelimit-policy']).toBe('"partner-api";q=100;w=60');
      expect(response.headers.ratelimit).toBe('"partner-api";r=99;t=30');
      expect(limits.counted).toEqual(['partner-api:pk_test_1']);
    },
  );

  it('counts a request it serves once, though its guard runs after the body is read', async () => {
    const response = await post(JSON.stringify({ name: 'Ada' }));
    expect(response.json().data).toEqual({ name: 'Ada', businessId: 'BUS-1' });
    expect(response.headers.ratelimit).toBe('"partner-api";r=99;t=30');
    const listed = await app.inject({ method: 'GET', url: '/widgets', headers: keys });
    expect(listed.statusCode).toBe(200);
    expect(limits.counted).toEqual(['partner-api:pk_test_1', 'partner-api:pk_test_1']);
  });

  it('checks a keyed route outside PartnerController in its guard, once', async () => {
    const response = await app.inject({ method: 'GET', url: '/guarded', headers: keys });
    expect(response.json().data).toEqual({ businessId: 'BUS-1' });
    expect(response.headers.ratelimit).toBe('"partner-api";r=99;t=30');
    expect(limits.counted).toEqual(['partner-api:pk_test_1']);
    expect((await app.inject({ method: 'GET', url: '/guarded' })).statusCode).toBe(401);
  });

  it('lets no bad body past the limit: over the quota, a malformed body answers 429', async () => {
    limits.quota = 1;
    expect((await post('{"name": ')).statusCode).toBe(400);
    const over = await post('{"name": ');
    expect([over.statusCode, over.json().data.code]).toEqual([429, 'RATE_LIMITED']);
    expect(over.headers['retry-after']).toBe('30');
  });

  it('answers 401 to a body without a key pair before reading it', async () => {
    const response = await post('{"name": ', {});
    expect([response.statusCode, response.json().data.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(limits.counted).toEqual([]);
  });

  it("counts a hosted-page visitor's refused body too, with the page's RateLimit headers", async () => {
    const response = await post('{"name": ', {}, '/page');
    expect(response.statusCode).toBe(400);
    expect(response.headers['ratelimit-policy']).toBe('"hosted-page";q=100;w=60');
    expect(limits.counted).toEqual(['hosted-page:127.0.0.1']);
    await post(JSON.stringify({ name: 'Ada' }), {}, '/page');
    expect(limits.counted).toEqual(['hosted-page:127.0.0.1', 'hosted-page:127.0.0.1']);
  });
});
