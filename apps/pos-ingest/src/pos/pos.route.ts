import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiEnvelope, PosSubmissionRequest, PosSubmissionResponse } from '@payments/contracts';
import { clientAddressKey } from '@payments/platform-bootstrap';
import { envelopeOperation } from '@payments/platform-envelope';
import type { FastifyInstance } from 'fastify';

import { PosService } from './pos.service';
import { posSubmission } from './pos-submission';

/** The route in the API document, which cannot see routes outside Nest's router. */
export const posRouteDocs = {
  '/pos': {
    post: envelopeOperation({
      operationId: 'submitPosTransaction',
      summary: 'Submit an encrypted card transaction from a terminal; no key headers',
      tag: 'pos',
      body: PosSubmissionRequest,
      ok: PosSubmissionResponse,
      errors: [400, 403, 413, 415, 422, 429, 503],
    }),
  },
};

/**
 * POST /pos as a plain Fastify route on Nest's Fastify instance. Terminals send more requests
 * than any other caller, and Nest's per-request pipeline (interceptors, pipes, observables)
 * cost more CPU than the work itself; the instance's own hooks (request id, log context,
 * latency metric) cost no more than on a separate Fastify instance (docs/benchmarks.md), so
 * the route keeps them and the port. Answers are the same as every route's: the body is
 * checked against the same DTO, and anything thrown goes to the shared error handler.
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
      handler: async (request, reply): Promise<ApiEnvelope<PosSubmissionResponse>> => ({
        status: true,
        statusCode: 200,
        message: 'Transaction received',
        data: await this.pos.submit(posSubmission(request.body), reply, clientAddressKey(request.ip)),
      }),
    });
  }
}
