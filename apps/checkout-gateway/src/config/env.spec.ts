import { composeServiceProblems } from '@payments/testing';

import { Env } from './env';

describe('checkout-gateway in docker-compose.yml', () => {
  it('has an environment its Env accepts, its port, and a hardened multi-stage image', () => {
    expect(composeServiceProblems('checkout-gateway', Env)).toEqual([]);
  });
});
