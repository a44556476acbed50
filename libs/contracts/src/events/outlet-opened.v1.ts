import { IsNotEmpty, IsString } from 'class-validator';

import { ForBusiness } from '../messages/scopes';

/**
 * outlet-service created an outlet, on Topics.businessEvents (keyed by business id, so it
 * follows the business's own provisioning). pos-ingest keeps the outlets it hears of, so that a
 * terminal can only be registered to an outlet of its own business.
 */
export const OutletOpenedV1 = 'outlet.opened.v1';

export class OutletOpenedV1Payload extends ForBusiness {
  @IsString()
  @IsNotEmpty()
  outletId!: string;
}
