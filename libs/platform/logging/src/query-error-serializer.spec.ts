import { Writable } from 'node:stream';

import { pinoHttp } from 'pino-http';
import { QueryFailedError } from 'typeorm';

import { pinoHttpOptions } from './logging.module';

const apiKey = 'pk_test_4nY7rT2wQz9LmV3xK8sJ6pHd';
const pan = '5399831234567890';

/** A failure as pg reports one: the value quoted back in the message, the row in `detail`. */
function failedQuery(parameters: unknown[], quoted: string): QueryFailedError {
  const driverError = Object.assign(new Error(`invalid input syntax for type integer: "${quoted}"`), {
    severity: 'ERROR',
    code: '22P02',
    detail: `Failing row contains (${apiKey}, ${pan}).`,
  });
  return new QueryFailedError('INSERT INTO gateway.things (key, pan) VALUES ($1, $2)', parameters, driverError);
}

/** What an app's logger writes for `err`, with the apps' own settings. */
function logged(err: unknown): string {
  let output = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  pinoHttp(pinoHttpOptions({ LOG_LEVEL: 'info', SERVICE_NAME: 'test' }), sink).logger.error({ err }, 'failed');
  return output;
}

describe('the error serializer', () => {
  it("leaves a failed query's values out of every field, and keeps the rest", () => {
    const line = logged(failedQuery([apiKey, pan], apiKey));
    expect(line).not.toContain(apiKey);
    expect(line).not.toContain(pan);
    const { err } = JSON.parse(line) as { err: Record<string, unknown> };
    expect(err).toMatchObject({
      type: 'QueryFailedError',
      code: '22P02',
      message: 'invalid input syntax for type integer: "[redacted]"',
      query: 'INSERT INTO gateway.things (key, pan) VALUES ($1, $2)',
    });
    expect(err).not.toHaveProperty('parameters');
    expect(err).not.toHaveProperty('detail');
  });

  it('finds the values of a query that failed underneath another error, and inside a JSON argument', () => {
    const move = JSON.stringify({ card: { pan }, reference: 'CHK-1' });
    const wrapped = new Error('charge failed', { cause: failedQuery([move], pan) });
    const line = logged(wrapped);
    expect(line).not.toContain(pan);
    expect(line).toContain('charge failed');
  });

  it('leaves errors that are not about a query as they were', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(JSON.parse(logged(refused)).err).toMatchObject({
      message: 'connect ECONNREFUSED 127.0.0.1:5432',
      code: 'ECONNREFUSED',
    });
  });

  it('leaves the error it was given untouched', () => {
    const error = failedQuery([apiKey, pan], apiKey);
    logged(error);
    expect(error.parameters).toEqual([apiKey, pan]);
    expect(error.message).toContain(apiKey);
  });
});
