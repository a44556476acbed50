import { BusinessProfileResponse } from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from './api-key.guard';
import { Business } from './business.entity';

@PartnerController('business', 'business')
export class BusinessController {
  @Route.get('', 'The business behind the calling keys: check your credentials and mode')
  @Answers(BusinessProfileResponse, 'Business retrieved')
  getBusiness(@CurrentBusiness() business: Business) {
    return {
      businessId: business.id,
      name: business.name,
      mode: business.mode,
      webhookUrl: business.webhookUrl,
      createdAt: business.createdAt.toISOString(),
    };
  }
}
