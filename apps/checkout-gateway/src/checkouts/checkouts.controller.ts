import { Body, Controller, Get, Headers, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CheckoutResponse, CreateCheckoutRequest, CreateCheckoutResponse } from '@payments/contracts';
import { ApiEnvelopeErrors, ApiEnvelopeOk, ApiKeyProtected, ApiRequestBody, SuccessMessage, ValidationFailedError } from '@payments/platform-envelope';
import { ApiKeyGuard, CurrentBusiness } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { CheckoutsService } from './checkouts.service';

@ApiTags('checkout')
@Controller('payin/charge/requests')
@UseGuards(ApiKeyGuard)
@ApiKeyProtected()
export class CheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a checkout: a reference and the hosted page link to send the customer to' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A retry with the same key and body returns the first answer' })
  @ApiRequestBody(CreateCheckoutRequest)
  @ApiEnvelopeOk(CreateCheckoutResponse)
  @ApiEnvelopeErrors(422)
  @SuccessMessage('Checkout created successfully')
  create(
    @CurrentBusiness() business: Business,
    @Body() request: CreateCheckoutRequest,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<CreateCheckoutResponse> {
    if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
      throw new ValidationFailedError([{ field: 'Idempotency-Key', messages: ['Idempotency-Key must be 1 to 255 printable ASCII characters'] }]);
    }
    return this.checkouts.create(business.id, request, idempotencyKey);
  }

  @Get(':reference')
  @ApiOperation({ summary: 'The checkout as it is now: verify its status before you fulfil' })
  @ApiEnvelopeOk(CheckoutResponse)
  @ApiEnvelopeErrors(404)
  @SuccessMessage('Transaction retrieved')
  get(@CurrentBusiness() business: Business, @Param('reference') reference: string): Promise<CheckoutResponse> {
    return this.checkouts.get(business.id, reference);
  }
}
