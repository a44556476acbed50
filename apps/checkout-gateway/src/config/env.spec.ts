import { composeServiceProblems, deploymentProblems, overlays } from '@payments/testing';

import { Env } from './env';

describe('checkout-gateway in docker-compose.yml', () => {
  it('has an environment its Env accepts, its port, and a hardened multi-stage image', () => {
    expect(composeServiceProblems('checkout-gateway', Env)).toEqual([]);
  });
});

describe('checkout-gateway in the Kubernetes overlays', () => {
  it.each(overlays)('%s: has an environment its Env accepts, its port, its probes and room to drain', (overlay) => {
    expect(deploymentProblems(overlay, 'checkout-gateway', Env)).toEqual([]);
  });
});
