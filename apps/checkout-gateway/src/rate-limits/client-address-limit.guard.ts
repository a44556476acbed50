import { CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { clientAddressKey } from '@payments/platform-bootstrap';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { GatewayRateLimits } from './gateway-rate-limits';

/** The hosted page's routes: no keys, so the caller's address (an IPv6 one by its /64) is what is counted. */
@Injectable()
export class ClientAddressLimitGuard implements CanActivate {
  constructor(private readonly limits: GatewayRateLimits) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const address = clientAddressKey(http.getRequest<FastifyRequest>().ip);
    await this.limits.admitPageVisitor(http.getResponse<FastifyReply>(), address);
    return true;
  }
}

/** A hosted-page controller or route, limited per client address. */
export const LimitedPerClientAddress = () => UseGuards(ClientAddressLimitGuard);
