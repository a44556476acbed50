import { Body, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  CheckoutAccountResponse,
  CheckoutQrResponse,
  QrWalletPayRequest,
  QrWalletPayResponse,
} from '@payments/contracts';
import { ApiEnvelopeErrors, ApiEnvelopeOk, ApiRequestBody, SuccessMessage } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { TransferAndQrService } from './transfer-and-qr.service';

@PartnerController('', 'checkout')
export class TransferAndQrController {
  constructor(private readonly methods: TransferAndQrService) {}

  @Post('checkout/:reference/pay-with-transfer')
  @HttpCode(200)
  @ApiOperation({ summary: 'The dynamic bank account to pay this checkout into; the exact amount completes it' })
  @ApiEnvelopeOk(CheckoutAccountResponse)
  @ApiEnvelopeErrors(404, 422, 503)
  @SuccessMessage('Transfer details ready')
  transfer(@CurrentBusiness() business: Business, @Param('reference') reference: string) {
    return this.methods.bankAccount(business, reference);
  }

  @Post('checkout/:reference/qr')
  @HttpCode(200)
  @ApiOperation({ summary: 'The QR code a wallet app scans to pay this checkout' })
  @ApiEnvelopeOk(CheckoutQrResponse)
  @ApiEnvelopeErrors(404, 422)
  @SuccessMessage('QR code ready')
  qr(@CurrentBusiness() business: Business, @Param('reference') reference: string) {
    return this.methods.qr(business, reference);
  }

  @Post('sandbox/qr-wallet/pay')
  @HttpCode(200)
  @ApiOperation({ summary: 'The sandbox wallet app scans a checkout QR code and pays it (test keys only)' })
  @ApiRequestBody(QrWalletPayRequest)
  @ApiEnvelopeOk(QrWalletPayResponse)
  @ApiEnvelopeErrors(400, 403, 404, 422, 503)
  @SuccessMessage('Paid')
  pay(@CurrentBusiness() business: Business, @Body() request: QrWalletPayRequest): Promise<QrWalletPayResponse> {
    return this.methods.payQr(business, request.qrPayload);
  }
}
