import { composeServiceProblems } from '@payments/testing';

import { Env } from './env';

describe('outlet-service in docker-compose.yml', () => {
  it('has an environment its Env accepts, its port, and a hardened multi-stage image', () => {
    expect(composeServiceProblems('outlet-service', Env)).toEqual([]);
  });
});
