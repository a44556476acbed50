import { Body } from '@nestjs/common';
import { BusinessKeysResponse, RolledKeysResponse, RollKeysRequest } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CallingApiKey, CurrentBusiness, PartnerController } from './api-key.guard';
import { Business } from './business.entity';
import { BusinessKeysService, defaultGraceHours } from './business-keys.service';

@PartnerController('business/keys', 'business')
export class BusinessKeysController {
  constructor(private readonly keys: BusinessKeysService) {}

  @Route.post(
    'roll',
    'Issue a new key pair; the pair in use keeps working for the grace period you choose (0 to 72 hours)',
  )
  @Answers(RolledKeysResponse, 'Keys rolled', 403, 422)
  rollKeys(
    @CurrentBusiness() business: Business,
    @CallingApiKey() callingApiKey: string,
    @Body() request: RollKeysRequest,
  ) {
    const gracePeriodHours = request.gracePeriodHours ?? defaultGraceHours;
    return this.keys.roll(business, { gracePeriodHours, actor: 'api', callingApiKey });
  }

  @Route.get('', 'Your key pairs (never the keys themselves) and the audit trail of their creation, rolls and expiry')
  @Answers(BusinessKeysResponse, 'Keys retrieved')
  listKeys(@CurrentBusiness() business: Business) {
    return this.keys.list(business.id);
  }
}
