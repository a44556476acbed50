import { Body, Param } from '@nestjs/common';
import {
  CheckoutAccountResponse,
  CheckoutQrResponse,
  QrWalletPayRequest,
  QrWalletPayResponse,
} from '@payments/contracts';
import { Answers, Route } from '@payments/platform-envelope';

import { CurrentBusiness, PartnerController } from '../businesses/api-key.guard';
import { Business } from '../businesses/business.entity';
import { TransferAndQrService } from './transfer-and-qr.service';

@PartnerController('', 'checkout')
export class TransferAndQrController {
  constructor(private readonly methods: TransferAndQrService) {}

  @Route.post(
    'checkout/:reference/pay-with-transfer',
    'The dynamic bank account to pay this checkout into; the exact amount completes it',
  )
  @Answers(CheckoutAccountResponse, 'Transfer details ready', 403, 404, 422, 503)
  getTransferAccount(@CurrentBusiness() business: Business, @Param('reference') reference: string) {
    return this.methods.bankAccount(business, reference);
  }

  @Route.post('checkout/:reference/qr', 'The QR code a wallet app scans to pay this checkout')
  @Answers(CheckoutQrResponse, 'QR code ready', 403, 404, 422)
  getCheckoutQr(@CurrentBusiness() business: Business, @Param('reference') reference: string) {
    return this.methods.qr(business, reference);
  }

  @Route.post('sandbox/qr-wallet/pay', 'The sandbox wallet app scans a checkout QR code and pays it (test keys only)')
  @Answers(QrWalletPayResponse, 'Paid', 400, 403, 404, 422, 503)
  payWithQrWallet(@CurrentBusiness() business: Business, @Body() request: QrWalletPayRequest) {
    return this.methods.payQr(business, request.qrPayload);
  }
}
