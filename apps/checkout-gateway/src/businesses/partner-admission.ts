import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { admitBeforeBody, UnauthorizedError } from '@payments/platform-envelope';
import { HeaderSink } from '@payments/platform-rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { GatewayRateLimits } from '../rate-limits/gateway-rate-limits';
import { Business } from './business.entity';
import { BusinessesService } from './businesses.service';

/** The admission of every partner route (PartnerController). */
export const partnerKeyAdmission = 'partner-key';

export type AuthenticatedRequest = FastifyRequest & { business?: Business };

/**
 * A partner request's key pair must match one business, and the key must be within its rate
 * limit (counted once it is known to be the business's). Checked before the body is read, so
 * a request whose body is refused (400, 413, 415) is counted too and its answer carries the
 * key's RateLimit headers; ApiKeyGuard checks any request that did not pass here.
 */
@Injectable()
export class PartnerAdmission implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly businesses: BusinessesService,
    private readonly rateLimits: GatewayRateLimits,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    admitBeforeBody(fastify, partnerKeyAdmission, (request, reply) => this.admit(request, reply));
  }

  /** Authenticates the request's key pair into `request.business`, and counts it; the headers go on `reply`. */
  async admit(request: AuthenticatedRequest, reply: HeaderSink): Promise<void> {
    const apiKey = request.headers['x-api-key'];
    const apiSecret = request.headers['x-api-secret'];
    if (typeof apiKey !== 'string' || typeof apiSecret !== 'string' || !apiKey || !apiSecret) {
      throw new UnauthorizedError('x-api-key and x-api-secret headers are required');
    }
    const business = await this.businesses.authenticate(apiKey, apiSecret);
    if (!business) throw new UnauthorizedError('Invalid API credentials');
    await this.rateLimits.admitPartner(reply, apiKey, business.id);
    request.business = business;
  }
}
