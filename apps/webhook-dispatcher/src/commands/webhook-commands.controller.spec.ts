import { loadEnv } from '@payments/platform-config';

import { Env } from '../config/env';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { Endpoint, EndpointsRepository } from '../endpoints/endpoints.repository';
import { EndpointSettings } from './endpoint-settings';
import { ManualDeliveries } from './manual-deliveries';
import { SecretRolls } from './secret-rolls';
import { WebhookCommandsController } from './webhook-commands.controller';
import { WebhookEndpoints } from './webhook-endpoints';

const dataKey = 'bG9jYWwtb25seS1rZXktbmV2ZXItdXNlLWluLXByb2Q=';

/** The controller and its endpoint settings with fakes for their storage: only the URL checks are real. */
function controller(env: Record<string, string> = {}) {
  let endpoint: Endpoint = {
    businessId: 'b1',
    mode: 'test',
    url: null,
    apiKey: 'pk_test_x',
    previousApiKey: null,
    signingSecret: 'whsec_x',
    previousSigningSecrets: [],
    previousSecretExpiresAt: null,
    status: 'active',
    disabledReason: null,
    createdAt: new Date(),
  };
  const endpoints = {
    find: async () => endpoint,
    lockRouting: async () => undefined,
    setUrl: async (_em: unknown, _businessId: string, url: string) => {
      endpoint = { ...endpoint, url };
    },
  } as unknown as EndpointsRepository;
  const deliveries = { retarget: async () => undefined } as unknown as DeliveriesRepository;
  const worker = { nudge: () => undefined } as unknown as DeliveryWorker;
  const dataSource = { transaction: (work: (em: unknown) => Promise<unknown>) => work({}) };
  const settings = new EndpointSettings(
    dataSource as never,
    endpoints,
    deliveries,
    worker,
    loadEnv(Env, { API_KEY_SEALING_KEY: dataKey, WEBHOOK_SECRET_SEALING_KEY: dataKey, ...env }),
  );
  return new WebhookCommandsController(
    settings,
    {} as ManualDeliveries,
    deliveries,
    {} as WebhookEndpoints,
    {} as SecretRolls,
  );
}

describe('setting a sandbox business’s webhook URL', () => {
  it.each([
    'http://127.0.0.1:3003/health',
    'http://localhost:3003/',
    'http://10.0.0.5/hooks',
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.\ue9671:1/',
  ])('refuses %s by default', async (url) => {
    await expect(controller().handle({ type: 'setEndpoint', businessId: 'b1', url })).rejects.toMatchObject({
      code: 'WEBHOOK_URL_NOT_ALLOWED',
      status: 422,
    });
  });

  it('accepts a loopback receiver where a developer allowed private addresses, but never a link-local one', async () => {
    const local = controller({ WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' });
    expect(
      await local.handle({ type: 'setEndpoint', businessId: 'b1', url: 'http://127.0.0.1:8080/hooks' }),
    ).toMatchObject({ url: 'http://127.0.0.1:8080/hooks' });
    await expect(
      local.handle({ type: 'setEndpoint', businessId: 'b1', url: 'http://169.254.169.254/' }),
    ).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
  });
});
