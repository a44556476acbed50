import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreditVirtualAccountRequest, CreditVirtualAccountResponse } from '@payments/contracts';
import {
  ApiEnvelopeErrors,
  ApiEnvelopeOk,
  ApiKeyProtected,
  apiError,
  ApiRequestBody,
  SuccessMessage,
  ValidationFailedError,
} from '@payments/platform-envelope';
import { ApiKeyGuard, CurrentBusiness } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../services/outlet-service.client';

/** Simulators of the outside world, for test keys only. */
@ApiTags('sandbox')
@Controller('sandbox')
@UseGuards(ApiKeyGuard)
@ApiKeyProtected()
export class SandboxController {
  constructor(private readonly outletService: OutletServiceClient) {}

  @Post('virtual-accounts/:accountNumber/credit')
  @HttpCode(200)
  @ApiOperation({ summary: 'Simulate an inbound bank transfer to a virtual account (test keys only)' })
  @ApiRequestBody(CreditVirtualAccountRequest)
  @ApiEnvelopeOk(CreditVirtualAccountResponse)
  @ApiEnvelopeErrors(403, 404, 422, 503)
  @SuccessMessage('Virtual account credited')
  credit(
    @CurrentBusiness() business: Business,
    @Param('accountNumber') accountNumber: string,
    @Body() request: CreditVirtualAccountRequest,
  ): Promise<CreditVirtualAccountResponse> {
    if (business.mode !== 'test') throw apiError('SANDBOX_ONLY', 'Sandbox simulators accept test keys only');
    if (!/^\d{10}$/.test(accountNumber)) {
      throw new ValidationFailedError([{ field: 'accountNumber', messages: ['accountNumber must be 10 digits'] }]);
    }
    return this.outletService.send({ type: 'creditVirtualAccount', accountNumber, request });
  }
}
