import { CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { GatewayRateLimits } from './gateway-rate-limits';

/** The hosted page's routes: no keys, so the caller's address is what is counted. */
@Injectable()
export class ClientAddressLimitGuard implements CanActivate {
  constructor(private readonly limits: GatewayRateLimits) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await this.limits.admitPageVisitor(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>().ip);
    return true;
  }
}

/** A hosted-page controller or route, limited per client address. */
export const LimitedPerClientAddress = () => UseGuards(ClientAddressLimitGuard);
