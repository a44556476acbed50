import { applyDecorators, CanActivate, ExecutionContext, Injectable, OnModuleInit, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { AdmitBeforeBody, admitBeforeBody, admittedBeforeBody } from '@payments/platform-envelope';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { GatewayRateLimits } from './gateway-rate-limits';

const clientAddressAdmission = 'client-address';

/**
 * The hosted page's routes: no keys, so the caller's address (an IPv6 one by its /64) is what is
 * counted, before the body is read, so that a refused body is counted too and its answer
 * carries the RateLimit headers.
 */
@Injectable()
export class ClientAddressAdmission implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly limits: GatewayRateLimits,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    admitBeforeBody(fastify, clientAddressAdmission, (request, reply) => this.admit(request, reply));
  }

  admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.limits.admitPageVisitor(reply, clientAddressKey(request.ip));
  }
}

/** Counts a request that ClientAddressAdmission did not (one counted there is not counted again). */
@Injectable()
export class ClientAddressLimitGuard implements CanActivate {
  constructor(private readonly admission: ClientAddressAdmission) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (!admittedBeforeBody(request, clientAddressAdmission)) {
      await this.admission.admit(request, http.getResponse<FastifyReply>());
    }
    return true;
  }
}

/** A hosted-page controller or route, limited per client address. */
export const LimitedPerClientAddress = () =>
  applyDecorators(UseGuards(ClientAddressLimitGuard), AdmitBeforeBody(clientAddressAdmission));
