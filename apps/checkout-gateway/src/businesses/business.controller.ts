import { BusinessProfileResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from './api-key.guard';
import { Business } from './business.entity';
import { BusinessesService } from './businesses.service';

@PartnerController('business', 'business')
export class BusinessController {
  constructor(private readonly businesses: BusinessesService) {}

  @Route.get('', 'The business behind the calling keys: check your credentials and mode')
  @Answers(BusinessProfileResponse, 'Business retrieved')
  getBusiness(@CurrentBusiness() business: Business) {
    return this.businesses.profile(business);
  }
}
