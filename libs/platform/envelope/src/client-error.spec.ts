import { PassThrough } from 'node:stream';

import { Logger } from '@nestjs/common';

import { answerClientError } from './client-error';

/** What answerClientError writes to a socket for a parser error with this code. */
async function written(
  code: string,
  rawPacket?: Buffer,
): Promise<{ head: string; body: Record<string, unknown> | null }> {
  const socket = new PassThrough();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => socket.on('end', resolve));
  answerClientError(Object.assign(new Error('parse error'), { code, rawPacket }), socket);
  await ended;
  const [head, body] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
  return { head, body: body ? (JSON.parse(body) as Record<string, unknown>) : null };
}

describe('answerClientError', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['HPE_INVALID_METHOD', 400, 'MALFORMED_REQUEST'],
    ['HPE_HEADER_OVERFLOW', 431, 'HEADERS_TOO_LARGE'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'REQUEST_TIMEOUT'],
  ])('answers %s with a %i envelope and closes the connection', async (code, status, errorCode) => {
    const { head, body } = await written(code);
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toContain('Connection: close');
    expect(body).toEqual({ status: false, statusCode: status, message: expect.any(String), data: { code: errorCode } });
  });

  it.each(['HPE_HEADER_OVERFLOW', 'HPE_INVALID_METHOD', 'ERR_HTTP_REQUEST_TIMEOUT'])(
    'gives the answer to %s a new x-request-id, and logs the answer under it',
    async (code) => {
      const log = jest.mocked(Logger.prototype.log);
      const first = (await written(code)).head.match(/\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/)?.[1];
      const second = (await written(code)).head.match(/\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/)?.[1];
      expect(first).toBeDefined();
      expect(second).not.toBe(first);
      expect(log).toHaveBeenCalledWith(expect.objectContaining({ requestId: first }), expect.any(String));
    },
  );

  it('answers a HEAD request with the headers alone', async () => {
    const { head, body } = await written('HPE_HEADER_OVERFLOW', Buffer.from('HEAD /health/live HTTP/1.1\r\nx-a: hhhh'));
    expect(head).toMatch(/^HTTP\/1.1 431 /);
    expect(body).toBeNull();
  });

  it('writes nothing to a connection the client already reset', () => {
    const socket = new PassThrough();
    const write = jest.spyOn(socket, 'end');
    answerClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), socket);
    expect(write).not.toHaveBeenCalled();
  });
});
