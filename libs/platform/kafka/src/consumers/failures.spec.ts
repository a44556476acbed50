import { createContext, runInContext } from 'node:vm';

import { isTransient, PoisonMessageError, RetryLaterError } from './failures';

describe('which failures are about the infrastructure', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [
      'a server shutting down',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a serialisation failure', Object.assign(new Error('could not serialize access'), { code: '40001' })],
    ['a deadlock', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a retriable Kafka error', Object.assign(new Error('The coordinator is not available'), { retriable: true })],
    [
      'a driver error wrapped by TypeORM',
      Object.assign(new Error('QueryFailedError'), { driverError: Object.assign(new Error('x'), { code: '08006' }) }),
    ],
    ['something that will come later', new RetryLaterError('business not onboarded yet')],
  ])('retries %s', (_case, error) => {
    expect(isTransient(error)).toBe(true);
  });

  it('recognises an error made in another realm, as Node core errors are under a test runner', () => {
    const foreign = runInContext(
      `Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })`,
      createContext({}),
    );
    expect(foreign instanceof Error).toBe(false);
    expect(isTransient(foreign)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a bug', new TypeError('cannot read properties of undefined')],
    ['poison', new PoisonMessageError('not JSON')],
    ['not an error at all', 'boom'],
  ])('does not retry %s forever', (_case, error) => {
    expect(isTransient(error)).toBe(false);
  });
});
