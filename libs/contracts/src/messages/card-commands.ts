import type { CardChargeResponse } from '../http/checkout/card.dto';

/**
 * Requests the gateway sends to card-processor on Topics.cardCommands (request/reply). Card
 * data and verification answers travel sealed (AES-256-GCM, CARD_DATA_KEY, bound to the
 * checkout reference): they appear in no log and no message in clear.
 */
export type CardCommand =
  | {
      type: 'startCharge';
      businessId: string;
      mode: 'test' | 'live';
      checkoutReference: string;
      amount: string;
      /** The checkout's expiry: a step answered after it fails the charge. */
      expiresAt: string;
      sealedCard: string;
    }
  | { type: 'authorize'; businessId: string; checkoutReference: string; sealedAuthorization: string }
  | { type: 'complete3ds'; chargeId: string; checkoutReference: string; approved: boolean };

/** card-processor's answer: what the caller sees, plus what the gateway records on the checkout. */
export interface CardChargeState extends CardChargeResponse {
  chargeId: string;
  checkoutReference: string;
  businessId: string;
  maskedPan: string;
  /** Kobo, as charged. */
  amount: string;
}

/**
 * card-processor → outlet-service on Topics.cardCharges, written with the charge's SUCCESS:
 * the money the card paid goes to the business's settlement wallet, once per checkout.
 */
export const CardChargeSucceededV1 = 'card.charge.succeeded.v1';

export interface CardChargeSucceededV1Payload {
  chargeId: string;
  businessId: string;
  checkoutReference: string;
  amount: string;
  maskedPan: string;
  succeededAt: string;
}
