import { InvalidEnvironmentError, loadEnv } from '@payments/platform-config';
import { describeDeployments } from '@payments/testing';

import { Env } from './env';

const required = {
  API_KEY_SEALING_KEY: 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=',
  WEBHOOK_SECRET_SEALING_KEY: 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=',
};

describeDeployments('webhook-dispatcher', Env);

describe('webhook-dispatcher configuration', () => {
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
