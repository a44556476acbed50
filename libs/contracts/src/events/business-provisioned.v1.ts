import { IsNotEmpty, IsOptional, IsString } from 'class-validator';

import { ForBusiness } from '../messages/scopes';
import { BusinessMode, IsBusinessMode } from '../validation/business-mode';

/**
 * A partner was onboarded, on Topics.businessEvents. Secrets travel sealed (AES-256-GCM,
 * platform data key) so that the services that need them (webhook signing, POS decryption)
 * can store their own copy.
 */
export const BusinessProvisionedV1 = 'business.provisioned.v1';

export class BusinessProvisionedV1Payload extends ForBusiness {
  @IsString()
  name!: string;

  @IsBusinessMode()
  mode!: BusinessMode;

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
