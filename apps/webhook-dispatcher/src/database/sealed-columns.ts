import { ApiKeySealer, WebhookSecretSealer } from '@payments/platform-crypto';
import { SealedColumn } from '@payments/platform-database';

import { Env } from '../config/env';

/** What webhook-dispatcher keeps sealed, for `npm run keys:reseal` (docs/operations.md, "Rotating keys"). */
export function sealedColumns(env: Env): SealedColumn[] {
  const apiKeys = new ApiKeySealer(env.API_KEY_SEALING_KEY);
  const secrets = new WebhookSecretSealer(env.WEBHOOK_SECRET_SEALING_KEY);
  // A business's default endpoint is bound to the business, an endpoint it added to its own id.
  const endpoints = { schema: 'webhooks', table: 'endpoints', key: ['business_id'], boundTo: 'business_id' };
  const added = { schema: 'webhooks', table: 'partner_endpoints', key: ['id'], boundTo: 'id', sealer: secrets };
  // In the order a roll moves a value (current, previous, older), so that a value a roll moves
  // while the reseal runs lands in a column still to come.
  return [
    { ...endpoints, column: 'api_key_sealed', sealer: apiKeys },
    { ...endpoints, column: 'previous_api_key_sealed', sealer: apiKeys },
    { ...endpoints, column: 'signing_secret_sealed', sealer: secrets },
    { ...endpoints, column: 'previous_signing_secret_sealed', sealer: secrets },
    { ...endpoints, column: 'older_signing_secrets', sealer: secrets, arrayField: 'sealed' },
    { ...added, column: 'signing_secret_sealed' },
    { ...added, column: 'previous_signing_secret_sealed' },
    { ...added, column: 'older_signing_secrets', arrayField: 'sealed' },
    {
      schema: 'webhooks',
      table: 'secret_rolls',
      key: ['business_id', 'idempotency_key'],
      column: 'response_sealed',
      boundTo: 'business_id',
      sealer: secrets,
    },
  ];
}
