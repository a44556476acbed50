import { ApiKeySealer, MemberSecretSealer, PosKeySealer } from '@payments/platform-crypto';
import { SealedColumn } from '@payments/platform-database';

import { Env } from '../config/env';

/** What the gateway keeps sealed, for `npm run keys:reseal` (docs/operations.md, "Rotating keys"). */
export function sealedColumns(env: Env): SealedColumn[] {
  const apiKeys = new ApiKeySealer(env.API_KEY_SEALING_KEY);
  const posKeys = new PosKeySealer(env.POS_KEY_SEALING_KEY);
  const businesses = { schema: 'gateway', table: 'businesses', key: ['id'], boundTo: 'id' };
  return [
    { ...businesses, column: 'pos_encryption_key_sealed', sealer: posKeys },
    // Written by releases before business_keys; kept for their rows.
    { ...businesses, column: 'api_key_sealed', sealer: apiKeys },
    {
      schema: 'gateway',
      table: 'business_keys',
      key: ['api_key_hash'],
      column: 'api_key_sealed',
      boundTo: 'business_id',
      sealer: apiKeys,
    },
    // Null for a member without two factors: the reseal skips those rows.
    {
      schema: 'gateway',
      table: 'members',
      key: ['id'],
      column: 'totp_secret_sealed',
      boundTo: 'id',
      sealer: new MemberSecretSealer(env.MEMBER_SECRET_SEALING_KEY),
    },
  ];
}
