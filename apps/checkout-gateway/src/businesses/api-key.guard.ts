import {
  applyDecorators,
  CanActivate,
  Controller,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyProtected, UnauthorizedError } from '@payments/platform-envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { GatewayRateLimits } from '../rate-limits/gateway-rate-limits';
import { Business } from './business.entity';
import { BusinessesService } from './businesses.service';

type AuthenticatedRequest = FastifyRequest & { business?: Business };

/**
 * Every key-protected route: `x-api-key` and `x-api-secret` must both match one business, and
 * the key must be within its rate limit (counted once it is known to be the business's).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly businesses: BusinessesService,
    private readonly rateLimits: GatewayRateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const apiKey = request.headers['x-api-key'];
    const apiSecret = request.headers['x-api-secret'];
    if (typeof apiKey !== 'string' || typeof apiSecret !== 'string' || !apiKey || !apiSecret) {
      throw new UnauthorizedError('x-api-key and x-api-secret headers are required');
    }
    const business = await this.businesses.authenticate(apiKey, apiSecret);
    if (!business) throw new UnauthorizedError('Invalid API credentials');
    await this.rateLimits.admitPartner(http.getResponse<FastifyReply>(), apiKey, business.id);
    request.business = business;
    return true;
  }
}

/** The business the guard authenticated; every tenant-scoped query starts from it. */
export const CurrentBusiness = createParamDecorator((_data: unknown, context: ExecutionContext): Business => {
  const business = context.switchToHttp().getRequest<AuthenticatedRequest>().business;
  if (!business) throw new Error('CurrentBusiness used on a route without ApiKeyGuard');
  return business;
});

/** The x-api-key the request came with (authenticated by the guard). */
export const CallingApiKey = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  String(context.switchToHttp().getRequest<AuthenticatedRequest>().headers['x-api-key']),
);

/** A controller of the partner API: every route takes the business's key pair, and is documented so. */
export function PartnerController(path: string, tag: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), Controller(path), UseGuards(ApiKeyGuard), ApiKeyProtected());
}
