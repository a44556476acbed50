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
import { AdmitBeforeBody, admittedBeforeBody, ApiKeyProtected } from '@payments/platform-envelope';
import type { FastifyReply } from 'fastify';

import { Business } from './business.entity';
import { AuthenticatedRequest, PartnerAdmission, partnerKeyAdmission } from './partner-admission';

/**
 * Every key-protected route: a request PartnerAdmission did not check before its body was read
 * (a route outside PartnerController) is checked here, and one it did is not counted again.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly admission: PartnerAdmission) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (!admittedBeforeBody(request, partnerKeyAdmission)) {
      await this.admission.admit(request, http.getResponse<FastifyReply>());
    }
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

/**
 * A controller of the partner API: every route takes the business's key pair, checked before
 * the body is read, and is documented so.
 */
export function PartnerController(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    Controller(path),
    UseGuards(ApiKeyGuard),
    AdmitBeforeBody(partnerKeyAdmission),
    ApiKeyProtected(),
  );
}
