import { cronJobEnvironmentProblems, describeDeployments, overlays } from '@payments/testing';

import { Env } from './env';

describeDeployments('card-processor', Env);

describe('the daily card reconciliation in the Kubernetes overlays', () => {
  it.each(overlays)('%s: runs with an environment that card-processor’s settings accept', (overlay) => {
    expect(cronJobEnvironmentProblems(overlay, 'card-reconciliation', Env)).toEqual([]);
  });
});
