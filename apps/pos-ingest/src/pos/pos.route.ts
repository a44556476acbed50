import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiEnvelope, PosSubmissionRequest, PosSubmissionResponse } from '@payments/contracts';
import { envelopeOperation, fieldWithNul, flattenValidationErrors, ValidationFailedError } from '@payments/platform-envelope';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PosService } from './pos.service';

/** The route in the API document, which cannot see routes outside Nest's router. */
export const posRouteDocs = {
  '/pos': {
    post: envelopeOperation({
      summary: 'Submit an encrypted card transaction from a terminal; no key headers',
      tag: 'pos',
      body: PosSubmissionRequest,
      ok: PosSubmissionResponse,
      errors: [400, 404, 413, 415, 422, 503],
    }),
  },
};

/**
 * POST /pos as a plain Fastify route. Terminals send more requests than any other caller, and
 * Nest's per-request pipeline (interceptors, pipes, observables) cost more CPU than the work
 * itself (docs/benchmarks.md). Answers are the same: the body is checked against the same DTO,
 * and anything thrown goes to the shared error handler, which renders the error envelope as
 * for every route. The request line comes from the logging module's hook.
 */
@Injectable()
export class PosRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly pos: PosService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.route({
      method: 'POST',
      url: '/pos',
      handler: async (request): Promise<ApiEnvelope<PosSubmissionResponse>> => ({
        status: true,
        statusCode: 200,
        message: 'Transaction received',
        data: await this.pos.submit(validRequest(request)),
      }),
    });
  }
}

/** The body as a PosSubmissionRequest, or a 422 naming each bad field, as the global pipe would. */
function validRequest(request: FastifyRequest): PosSubmissionRequest {
  const body = typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? request.body : {};
  const withNul = fieldWithNul(body, '');
  if (withNul !== null) throw new ValidationFailedError([{ field: withNul || 'body', messages: [`${withNul || 'body'} must not contain NUL characters`] }]);
  const submission = plainToInstance(PosSubmissionRequest, body);
  const errors = validateSync(submission, { forbidUnknownValues: true });
  if (errors.length > 0) throw new ValidationFailedError(flattenValidationErrors(errors));
  return submission;
}
