import type { Duplex } from 'node:stream';

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

/**
 * Fastify's clientErrorHandler: a request Node's HTTP parser rejects never reaches a route, so
 * Fastify would answer it with a body of its own. This answers with the envelope instead and
 * closes the connection, whose framing can no longer be trusted.
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
  // The answer to a HEAD request has headers only; the bytes Node parsed say whether it was one.
  const head = Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}
