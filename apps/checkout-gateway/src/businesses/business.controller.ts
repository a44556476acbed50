import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { BusinessProfileResponse } from '@payments/contracts';
import { ApiEnvelopeOk, SuccessMessage } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from './api-key.guard';
import { Business } from './business.entity';

@PartnerController('business', 'business')
export class BusinessController {
  @Get()
  @ApiOperation({ summary: 'The business behind the calling keys: check your credentials and mode' })
  @ApiEnvelopeOk(BusinessProfileResponse)
  @SuccessMessage('Business retrieved')
  profile(@CurrentBusiness() business: Business): BusinessProfileResponse {
    return {
      businessId: business.id,
      name: business.name,
      mode: business.mode,
      webhookUrl: business.webhookUrl,
      createdAt: business.createdAt.toISOString(),
    };
  }
}
