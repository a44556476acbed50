import { composeServiceProblems } from '@payments/testing';
import { Env } from './env';

describe('webhook-dispatcher in docker-compose.yml', () => {
  it('has an environment its Env accepts, its port, and a hardened multi-stage image', () => {
    expect(composeServiceProblems('webhook-dispatcher', Env)).toEqual([]);
  });
});
