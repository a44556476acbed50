import { CardChargeSucceededV1Payload, CheckoutOutcome } from '@payments/contracts';

import { Product } from '../money/price';
import { NewOutcome } from './checkout-outcomes.repository';

/** A card charge the issuer captured, as card.charge.succeeded or the gateway reports it. */
export type CapturedCard = Pick<
  CardChargeSucceededV1Payload,
  'chargeId' | 'businessId' | 'checkoutReference' | 'amount' | 'maskedPan'
>;

/** The outcome a captured card asks for: the checkout paid by this charge. */
export function paidByCard(charge: CapturedCard): CheckoutOutcome {
  return {
    businessId: charge.businessId,
    checkoutReference: charge.checkoutReference,
    status: 'SUCCESS',
    method: 'card',
    paymentId: charge.chargeId,
    maskedCard: charge.maskedPan,
    comment: 'Paid by card',
  };
}

/** The outcome a bank transfer to the checkout's account asks for; the rail's session id names the payment. */
export function paidByTransfer(businessId: string, checkoutReference: string, sessionId: string): NewOutcome {
  return {
    businessId,
    checkoutReference,
    status: 'SUCCESS',
    method: 'pay-with-transfer',
    paymentId: sessionId,
    comment: 'Paid by bank transfer',
  };
}

/** The outcome the sandbox wallet app's payment of the QR code asks for. */
export function paidByQr(businessId: string, checkoutReference: string, paymentId: string): NewOutcome {
  return {
    businessId,
    checkoutReference,
    status: 'SUCCESS',
    method: 'qr-wallet',
    paymentId,
    comment: 'Paid by QR wallet',
  };
}

/** What a checkout payment is priced as. */
export function productOf(method: CheckoutOutcome['method']): Product {
  if (method === 'card') return 'card';
  if (method === 'qr-wallet') return 'qr';
  return 'transfer';
}

/** Why the bank's transfer to a checkout's account is refused: the checkout was decided before it. */
export function transferRefusal(accountNumber: string, decided: CheckoutOutcome): string {
  const why = decided.status === 'SUCCESS' ? 'has already been paid' : 'has ended';
  return `The checkout behind account ${accountNumber} ${why}`;
}

/** Why a QR payment is refused: the checkout was decided before it. */
export function qrRefusal(decided: CheckoutOutcome): string {
  const why = decided.status === 'SUCCESS' ? 'been paid' : 'ended';
  return `Checkout ${decided.checkoutReference} has already ${why}`;
}

/** Why captured money waits in the suspense wallet: the checkout was decided before the card was captured. */
export function suspenseReason(decided: CheckoutOutcome): string {
  const { checkoutReference } = decided;
  return decided.status === 'SUCCESS'
    ? `Checkout ${checkoutReference} was already paid${decided.method ? ` by ${decided.method}` : ''}`
    : `Checkout ${checkoutReference} had already ended: ${decided.comment}`;
}
