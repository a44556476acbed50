import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';

import { Logger } from '@nestjs/common';
import { ErrorCode } from '@payments/contracts';

const answers: Record<string, { status: number; reason: string; code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'REQUEST_TIMEOUT',
    message: 'The request did not arrive in time',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'HEADERS_TOO_LARGE',
    message: 'Request headers are too large',
  },
};
const malformed = {
  status: 400,
  reason: 'Bad Request',
  code: 'MALFORMED_REQUEST',
  message: 'The request is not valid HTTP',
} as const;

const logger = new Logger('HTTP');

/**
 * Fastify's clientErrorHandler: a request Node's HTTP parser rejects never reaches a route, so
 * Fastify would answer it with a body of its own. This answers with the envelope instead and
 * closes the connection, whose framing can no longer be trusted. The answer carries a new
 * `x-request-id`, as every answer does (the caller's own was not read: its headers are what
 * failed), and the log line with that id is what support finds when the caller quotes it.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = answers[error.code ?? ''] ?? malformed;
  const body = JSON.stringify({
    status: false,
    statusCode: answer.status,
    message: answer.message,
    data: { code: answer.code },
  });
  if (!socket.writable) return void socket.destroy();
  const requestId = randomUUID();
  logger.log(
    { requestId, status: answer.status, parserError: error.code },
    'answered a request the HTTP parser refused',
  );
  // The answer to a HEAD request has headers only; the bytes Node parsed say whether it was one.
  const head = Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    [
      `HTTP/1.1 ${answer.status} ${answer.reason}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      head ? '' : body,
    ].join('\r\n'),
  );
}
