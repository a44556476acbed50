import { CheckoutOutcome } from '@payments/contracts';

import {
  paidByCard,
  paidByQr,
  paidByTransfer,
  productOf,
  qrRefusal,
  suspenseReason,
  transferRefusal,
} from './checkout-decisions';

const decided = (change: Partial<CheckoutOutcome>): CheckoutOutcome => ({
  businessId: 'biz-1',
  checkoutReference: 'CHK-1',
  status: 'SUCCESS',
  method: 'pay-with-transfer',
  paymentId: 'session-1',
  maskedCard: null,
  comment: 'Paid by bank transfer',
  ...change,
});

describe('what each payment asks the ledger to decide', () => {
  it('asks for the checkout paid by the card, the transfer or the QR payment, naming the payment', () => {
    const card = {
      chargeId: 'ch-1',
      businessId: 'biz-1',
      checkoutReference: 'CHK-1',
      amount: '500',
      maskedPan: '5060**19',
    };
    expect(paidByCard(card)).toEqual({
      businessId: 'biz-1',
      checkoutReference: 'CHK-1',
      status: 'SUCCESS',
      method: 'card',
      paymentId: 'ch-1',
      maskedCard: '5060**19',
      comment: 'Paid by card',
    });
    expect(paidByTransfer('biz-1', 'CHK-1', 'session-9')).toMatchObject({
      status: 'SUCCESS',
      method: 'pay-with-transfer',
      paymentId: 'session-9',
    });
    expect(paidByQr('biz-1', 'CHK-1', 'qr-3')).toMatchObject({
      status: 'SUCCESS',
      method: 'qr-wallet',
      paymentId: 'qr-3',
    });
  });

  it('prices each method as its product', () => {
    expect([productOf('card'), productOf('qr-wallet'), productOf('pay-with-transfer')]).toEqual([
      'card',
      'qr',
      'transfer',
    ]);
  });
});

describe('what a payment that came too late is told', () => {
  const paid = decided({});
  const failed = decided({
    status: 'FAILED',
    method: null,
    paymentId: null,
    comment: 'Checkout expired before payment',
  });

  it('refuses a transfer or a QR payment, saying whether the checkout was paid or ended', () => {
    expect(transferRefusal('9900000001', paid)).toBe('The checkout behind account 9900000001 has already been paid');
    expect(transferRefusal('9900000001', failed)).toBe('The checkout behind account 9900000001 has ended');
    expect(qrRefusal(paid)).toBe('Checkout CHK-1 has already been paid');
    expect(qrRefusal(failed)).toBe('Checkout CHK-1 has already ended');
  });

  it('keeps a late card capture in suspense, saying how the checkout was decided', () => {
    expect(suspenseReason(paid)).toBe('Checkout CHK-1 was already paid by pay-with-transfer');
    expect(suspenseReason(failed)).toBe('Checkout CHK-1 had already ended: Checkout expired before payment');
  });
});
