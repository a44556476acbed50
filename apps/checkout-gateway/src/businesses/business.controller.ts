import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BusinessProfileResponse } from '@payments/contracts';
import { ApiEnvelopeOk, ApiKeyProtected, SuccessMessage } from '@payments/platform-envelope';

import { ApiKeyGuard, CurrentBusiness } from './api-key.guard';
import { Business } from './business.entity';

@ApiTags('business')
@Controller('business')
@UseGuards(ApiKeyGuard)
@ApiKeyProtected()
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
