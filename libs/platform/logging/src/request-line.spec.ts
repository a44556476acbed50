import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';

import pino from 'pino';

import { logContextMixin, requestContext } from './request-context';
import { logRequestLine } from './request-line';

function linesOf(level: string, write: (logger: pino.Logger) => void): Record<string, unknown>[] {
  let output = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  write(
    pino(
      {
        level,
        serializers: {
          res: pino.stdSerializers.res,
          req: (req: IncomingMessage & { id: string }) => ({ id: req.id, method: req.method, url: req.url }),
        },
      },
      sink,
    ),
  );
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('logRequestLine', () => {
  const req = { id: 'trace-1', method: 'POST', url: '/pos', headers: {} } as unknown as IncomingMessage & {
    id: string;
  };
  const answered = (statusCode: number) =>
    ({ statusCode, headersSent: true, getHeaders: () => ({ 'x-request-id': 'trace-1' }) }) as unknown as ServerResponse;

  it('writes the fields pino-http writes, with the request id', () => {
    const [line] = linesOf('info', (logger) => logRequestLine(logger, req, answered(200), 3.5));
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      requestId: 'trace-1',
      req: { id: 'trace-1', method: 'POST', url: '/pos' },
      res: { statusCode: 200, headers: { 'x-request-id': 'trace-1' } },
      responseTime: 3.5,
    });
  });

  it('writes server errors at error level, so they show when info is off', () => {
    const lines = linesOf('warn', (logger) => {
      logRequestLine(logger, req, answered(422), 1);
      logRequestLine(logger, req, answered(503), 1);
    });
    expect(lines.map((line) => [line.level, line.msg, (line.res as { statusCode: number }).statusCode])).toEqual([
      [50, 'request errored', 503],
    ]);
  });
});

describe('request context', () => {
  it('puts the request id on every line written while serving the request, and on no other', () => {
    let output = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const logger = pino({ mixin: logContextMixin }, sink);
    requestContext.run({ requestId: 'trace-9' }, () => logger.info('inside'));
    logger.info('outside');
    const [inside, outside] = output
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inside).toMatchObject({ msg: 'inside', requestId: 'trace-9' });
    expect(outside).not.toHaveProperty('requestId');
  });
});
