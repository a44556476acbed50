import { randomUUID } from 'node:crypto';

import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiEnvelope, ApiErrorData, ErrorCode } from '@payments/contracts';

import { DomainError } from './domain-error';
import { codeForStatus, errorStatus } from './error-status';
import { isTransient } from './transient';

export interface RenderedError {
  envelope: ApiEnvelope<ApiErrorData & Record<string, unknown>>;
  /** Set for a 500: the error to log under `errorId`; never sent to the caller. */
  unexpected?: unknown;
  /** Set for a 503: the dependency failure behind it, for the log; never sent to the caller. */
  transient?: unknown;
}

/** Fastify raises these before our handlers run (URL, body parsing, size limit, content type). */
const fastifyErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_BAD_URL: {
    code: 'MALFORMED_REQUEST',
    message: 'The URL is not valid: a percent-encoded part does not decode',
  },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', message: 'A part of the path is longer than 100 characters' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'MALFORMED_JSON',
    message: 'Request body is empty but Content-Type is application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'A request body must be JSON, sent with Content-Type: application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'MALFORMED_JSON', message: 'Content-Length does not match the body' },
};

/** Ours rather than the framework's words, where its own ("Unsupported Media Type") say less. */
const frameworkMessages: Partial<Record<ErrorCode, string>> = {
  ROUTE_NOT_FOUND: 'Route not found',
  UNSUPPORTED_MEDIA_TYPE: fastifyErrors.FST_ERR_CTP_INVALID_MEDIA_TYPE.message,
};

/** Turns anything thrown while serving a request into the spec's envelope. */
export function toErrorEnvelope(error: unknown): RenderedError {
  if (error instanceof DomainError) {
    return { envelope: envelope(error.status, error.message, { code: error.code, ...error.details }) };
  }
  const fastifyCode = (error as { code?: unknown } | null)?.code;
  if (typeof fastifyCode === 'string' && fastifyErrors[fastifyCode]) {
    const known = fastifyErrors[fastifyCode];
    const status = (error as { statusCode?: number }).statusCode ?? HttpStatus.BAD_REQUEST;
    return { envelope: envelope(status, known.message, { code: known.code }) };
  }
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === HttpStatus.BAD_REQUEST) {
    return { envelope: envelope(HttpStatus.BAD_REQUEST, 'Request body is not valid JSON', { code: 'MALFORMED_JSON' }) };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status < HttpStatus.INTERNAL_SERVER_ERROR) {
      const code = codeForStatus(status);
      const message = frameworkMessages[code] ?? error.message;
      // The table fixes each code's status: one the framework raised with a status of no code of ours is a 400.
      return { envelope: envelope(errorStatus[code], message, { code }) };
    }
  }
  // The database or broker briefly away (a restart, a failover): the caller may retry.
  if (isTransient(error)) {
    return {
      envelope: envelope(
        HttpStatus.SERVICE_UNAVAILABLE,
        'A dependency is briefly unavailable; retrying the same request is safe',
        { code: 'SERVICE_UNAVAILABLE' },
      ),
      transient: error,
    };
  }
  const errorId = randomUUID();
  return {
    envelope: envelope(
      HttpStatus.INTERNAL_SERVER_ERROR,
      `Something went wrong on our side. Quote error id ${errorId} to support.`,
      {
        code: 'INTERNAL_ERROR',
        errorId,
      },
    ),
    unexpected: error,
  };
}

function envelope<T>(statusCode: number, message: string, data: T): ApiEnvelope<T> {
  return { status: false, statusCode, message, data };
}
