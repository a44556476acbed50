import { InvalidEnvironmentError, loadEnv } from '@payments/platform-config';
import { composeServiceProblems, deploymentProblems, overlays } from '@payments/testing';

import { Env } from './env';

const required = { DATA_ENCRYPTION_KEY: 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=' };

describe('webhook-dispatcher configuration', () => {
  it('has an environment its Env accepts in docker-compose.yml, its port, and a hardened multi-stage image', () => {
    expect(composeServiceProblems('webhook-dispatcher', Env)).toEqual([]);
  });

  it('sends to public addresses only unless a developer opts in', () => {
    expect(loadEnv(Env, required).WEBHOOK_SANDBOX_ALLOW_PRIVATE).toBe(false);
    expect(
      loadEnv(Env, { ...required, NODE_ENV: 'development', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' })
        .WEBHOOK_SANDBOX_ALLOW_PRIVATE,
    ).toBe(true);
  });

  it('refuses to start in production with private addresses allowed', () => {
    expect(() => loadEnv(Env, { ...required, NODE_ENV: 'production', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' })).toThrow(
      InvalidEnvironmentError,
    );
    expect(() => loadEnv(Env, { ...required, NODE_ENV: 'production', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' })).toThrow(
      /WEBHOOK_SANDBOX_ALLOW_PRIVATE/,
    );
  });
});

describe('webhook-dispatcher in the Kubernetes overlays', () => {
  it.each(overlays)('%s: has an environment its Env accepts, its port, its probes and room to drain', (overlay) => {
    expect(deploymentProblems(overlay, 'webhook-dispatcher', Env)).toEqual([]);
  });
});
