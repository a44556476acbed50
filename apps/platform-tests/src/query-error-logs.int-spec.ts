import { Writable } from 'node:stream';

import { Logger as NestLogger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { preparedQuery } from '@payments/platform-database';
import { pinoHttpOptions } from '@payments/platform-logging';
import { testEnvironment, uniqueName } from '@payments/testing';
import { Logger, LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';

jest.setTimeout(60_000);

const apiKey = 'pk_test_4nY7rT2wQz9LmV3xK8sJ6pHd';
const pan = '5399831234567890';

/**
 * Failed queries that carry a key and a card number, logged as the apps log them (through Nest,
 * nestjs-pino and the apps' pino settings): no line holds either.
 */
describe('the log of a failed query', () => {
  const schema = uniqueName('query_errors');
  let output = '';
  let dataSource: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    @Module({
      imports: [
        LoggerModule.forRoot({ pinoHttp: [pinoHttpOptions({ LOG_LEVEL: 'info', SERVICE_NAME: 'test' }), sink] }),
      ],
    })
    class LoggingOnly {}
    const app = await NestFactory.createApplicationContext(LoggingOnly, { bufferLogs: true });
    app.useLogger(app.get(Logger));
    dataSource = await new DataSource({ type: 'postgres', url: testEnvironment().DATABASE_URL }).initialize();
    await dataSource.query(`CREATE SCHEMA ${schema}`);
    await dataSource.query(`CREATE TABLE ${schema}.cards (pan text PRIMARY KEY, api_key text NOT NULL)`);
    close = async () => {
      await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
      await dataSource.destroy();
      await app.close();
    };
  });
  afterAll(() => close());

  /** The error `work` failed with, logged as the apps' error filter and consumers log one; the first line's. */
  async function logFailure(work: () => Promise<unknown>): Promise<Record<string, unknown>> {
    const error = await work().then(
      () => {
        throw new Error('expected the query to fail');
      },
      (failure: unknown) => failure,
    );
    const before = output.length;
    new NestLogger('ApiExceptionFilter').error({ err: error, errorId: 'E-1' }, 'unexpected error');
    new NestLogger('KafkaConsumers').warn({ err: new Error('handler failed', { cause: error }) }, 'retrying');
    const lines = output.slice(before).trim().split('\n');
    expect(lines).toHaveLength(2);
    return (JSON.parse(lines[0]) as { err: Record<string, unknown> }).err;
  }

  it('says what failed without the values, through the data source and a prepared statement', async () => {
    const insert = `INSERT INTO ${schema}.cards (pan, api_key) VALUES ($1, $2)`;
    await dataSource.query(insert, [pan, apiKey]);

    const duplicate = await logFailure(() => dataSource.query(insert, [pan, apiKey]));
    expect(duplicate).toMatchObject({ type: 'QueryFailedError', code: '23505', constraint: 'cards_pkey' });
    const badNumber = await logFailure(() => dataSource.query(`SELECT $1::int, $2::text`, [apiKey, pan]));
    expect(badNumber).toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer: "[redacted]"' });
    const prepared = await logFailure(() =>
      preparedQuery(dataSource, 'query_errors.bad_number', `SELECT $1::bigint, $2::text`, [pan + apiKey, apiKey]),
    );
    expect(prepared).toMatchObject({ code: '22P02', query: 'SELECT $1::bigint, $2::text' });

    expect(output).not.toContain(apiKey);
    expect(output).not.toContain(pan);
  });
});
