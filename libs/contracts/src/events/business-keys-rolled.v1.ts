import { IsISO8601, IsNotEmpty, IsString } from 'class-validator';

import { ForBusiness } from '../messages/scopes';

/**
 * A business rolled its API key pair, on Topics.businessEvents. The new key travels sealed;
 * until `previousKeyExpiresAt` webhooks are signed with the previous key as well.
 */
export const BusinessKeysRolledV1 = 'business.keys-rolled.v1';

export class BusinessKeysRolledV1Payload extends ForBusiness {
  @IsString()
  @IsNotEmpty()
  sealedApiKey!: string;

  @IsISO8601()
  previousKeyExpiresAt!: string;
}
