import { BusinessMode } from '@payments/contracts';
import { ApiKeySealer, hashSecret, randomToken } from '@payments/platform-crypto';

import { BusinessKey } from './business-key.entity';

/** A new key pair in clear, shown to its owner once, and the row that keeps it (hashed and sealed). */
export interface IssuedKeyPair {
  apiKey: string;
  apiSecret: string;
  row: Pick<BusinessKey, 'apiKeyHash' | 'businessId' | 'apiKeyHint' | 'apiKeySealed' | 'apiSecretHash'>;
}

export function issueKeyPair(businessId: string, mode: BusinessMode, sealer: ApiKeySealer): IssuedKeyPair {
  const prefix = mode === 'live' ? 'live' : 'test';
  const apiKey = `pk_${prefix}_${randomToken(24)}`;
  const apiSecret = `sk_${prefix}_${randomToken(32)}`;
  return {
    apiKey,
    apiSecret,
    row: {
      apiKeyHash: hashSecret(apiKey),
      businessId,
      apiKeyHint: keyHint(apiKey),
      apiKeySealed: sealer.seal(apiKey, businessId),
      apiSecretHash: hashSecret(apiSecret),
    },
  };
}

/** `pk_test_…a1b2`: enough to tell keys apart, nothing an attacker could use. */
export function keyHint(apiKey: string): string {
  return `${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`;
}
