import { IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';

import { ForBusiness } from '../messages/scopes';

/**
 * A partner was onboarded, on Topics.businessEvents. Secrets travel sealed (AES-256-GCM,
 * platform data key) so that the services that need them (webhook signing, POS decryption)
 * can store their own copy.
 */
export const BusinessProvisionedV1 = 'business.provisioned.v1';

export class BusinessProvisionedV1Payload extends ForBusiness {
  @IsString()
  name!: string;

  @IsIn(['test', 'live'])
  mode!: 'test' | 'live';

  @IsOptional()
  @IsString()
  webhookUrl!: string | null;

  @IsString()
  @IsNotEmpty()
  sealedApiKey!: string;

  @IsString()
  @IsNotEmpty()
  sealedPosEncryptionKey!: string;
}
