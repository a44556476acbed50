import { composeServiceProblems, deploymentProblems, overlays } from '@payments/testing';

import { Env } from './env';

describe('pos-ingest in docker-compose.yml', () => {
  it('has an environment its Env accepts, its port, and a hardened multi-stage image', () => {
    expect(composeServiceProblems('pos-ingest', Env)).toEqual([]);
  });
});

describe('pos-ingest in the Kubernetes overlays', () => {
  it.each(overlays)('%s: has an environment its Env accepts, its port, its probes and room to drain', (overlay) => {
    expect(deploymentProblems(overlay, 'pos-ingest', Env)).toEqual([]);
  });
});
