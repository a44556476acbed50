import { IsISO8601, IsOptional, IsString, IsUrl } from 'class-validator';

import { BusinessMode, IsBusinessMode } from '../../validation/business-mode';

/** GET /business: the business behind the calling keys, so integrators can check their setup. */
export class BusinessProfileResponse {
  @IsString()
  businessId!: string;

  @IsString()
  name!: string;

  /** `test` keys act on the sandbox; `live` keys on real rails. */
  @IsBusinessMode()
  mode!: BusinessMode;

  /** The default webhook endpoint's URL, as `PUT /webhooks/endpoint` set it; null until one is set. */
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false })
  webhookUrl!: string | null;

  @IsISO8601()
  createdAt!: string;
}
