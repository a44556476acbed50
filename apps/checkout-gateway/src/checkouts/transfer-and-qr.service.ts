import { Injectable } from '@nestjs/common';
import { CheckoutAccount, CheckoutQrResponse } from '@payments/contracts';
import { newUlid } from '@payments/platform-crypto';
import { apiError, requireSandboxRail } from '@payments/platform-envelope';
import { toDataURL, toString } from 'qrcode';

import { Business } from '../businesses/business.entity';
import { OutletServiceClient } from '../kafka-clients/outlet-service.client';
import { CheckoutsService } from './checkouts.service';

const qrScheme = 'payments-sandbox://pay';

/** Bank transfer to a dynamic account, and QR wallet payments, for checkouts that allow them. */
@Injectable()
export class TransferAndQrService {
  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly outlets: OutletServiceClient,
  ) {}

  async bankAccount(business: Business, reference: string): Promise<CheckoutAccount> {
    const checkout = await this.checkouts.payable(business.id, reference, 'pay-with-transfer');
    return this.outlets.send({
      type: 'assignCheckoutAccount',
      businessId: business.id,
      checkoutReference: reference,
      amount: checkout.amount,
      expiresAt: checkout.expiresAt,
    });
  }

  async qr(business: Business, reference: string): Promise<CheckoutQrResponse> {
    const qrPayload = await this.qrPayload(business, reference);
    return { qrPayload, qrCode: await toDataURL(qrPayload, { errorCorrectionLevel: 'M', margin: 2, width: 320 }) };
  }

  /** The same QR code as an SVG image, for the hosted page (served from its own origin). */
  async qrSvg(business: Business, reference: string): Promise<string> {
    return toString(await this.qrPayload(business, reference), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  }

  /**
   * The sandbox wallet app paid what the QR code asked for. The ledger books the money and
   * decides the checkout in one step, so a crash or timeout in between cannot split them.
   */
  async payQr(business: Business, qrPayload: string): Promise<{ reference: string; transactionStatus: 'SUCCESS' }> {
    if (business.mode !== 'test') throw apiError('SANDBOX_ONLY', 'The sandbox wallet accepts test keys only');
    const url = URL.canParse(qrPayload) ? new URL(qrPayload) : null;
    const reference = url && `${url.protocol}//${url.host}` === qrScheme ? url.searchParams.get('reference') : null;
    if (!reference) throw apiError('INVALID_PAYLOAD', 'qrPayload is not a checkout QR code');
    const checkout = await this.checkouts.payable(business.id, reference, 'qr-wallet');
    const result = await this.outlets.send({
      type: 'settleCheckoutPayment',
      businessId: business.id,
      checkoutReference: reference,
      amount: checkout.amount,
      method: 'qr-wallet',
      paymentId: newUlid(),
    });
    await this.checkouts.applyOutcome(result.outcome, checkout);
    return { reference, transactionStatus: 'SUCCESS' };
  }

  /** Only the sandbox wallet reads our codes: a live checkout gets a clear refusal, not a code no app pays. */
  private async qrPayload(business: Business, reference: string): Promise<string> {
    requireSandboxRail(business.mode, 'QR wallet payments');
    const checkout = await this.checkouts.payable(business.id, reference, 'qr-wallet');
    return `${qrScheme}?${new URLSearchParams({ reference, amount: checkout.amount })}`;
  }
}
