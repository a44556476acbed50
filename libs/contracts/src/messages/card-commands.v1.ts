import { IsBoolean, IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, Matches } from 'class-validator';

import type { CardChargeResponse } from '../http/checkout/card.dto';
import { BusinessMode, IsBusinessMode } from '../validation/business-mode';
import { IsKoboAmount } from '../validation/kobo-amount';
import type { CheckoutPaymentResult } from './outlet-commands.v1';
import { ForCheckout } from './scopes';

/**
 * Requests the gateway sends to card-processor on Topics.cardCommands (request/reply). Card
 * data and verification answers travel sealed (AES-256-GCM, CARD_DATA_KEY, bound to the
 * checkout reference): they appear in no log and no message in clear.
 */
export class StartChargeCommand extends ForCheckout {
  @IsIn(['startCharge'])
  type!: 'startCharge';

  @IsBusinessMode()
  mode!: BusinessMode;

  @IsKoboAmount()
  amount!: string;

  /** The checkout's expiry: a step answered after it fails the charge. */
  @IsISO8601()
  expiresAt!: string;

  @IsString()
  @IsNotEmpty()
  sealedCard!: string;
}

export class AuthorizeChargeCommand extends ForCheckout {
  @IsIn(['authorize'])
  type!: 'authorize';

  @IsString()
  @IsNotEmpty()
  sealedAuthorization!: string;
}

/** The sandbox bank's 3-D Secure page answered; its link carries the charge and checkout only. */
export class Complete3dsCommand {
  @IsIn(['complete3ds'])
  type!: 'complete3ds';

  @IsString()
  @IsNotEmpty()
  chargeId!: string;

  @IsString()
  @IsNotEmpty()
  checkoutReference!: string;

  @IsBoolean()
  approved!: boolean;
}

/**
 * A card payment or a step sent again after its checkout ended: how that checkout's charge
 * ended, or null when it has not (or was made with another card). Nothing is charged. Only the
 * card's keyed fingerprint travels: the card itself, CVV included, is not needed to answer.
 */
export class ChargeOutcomeCommand extends ForCheckout {
  @IsIn(['chargeOutcome'])
  type!: 'chargeOutcome';

  /** HMAC-SHA256 of the card number under CARD_DATA_KEY; absent for a step, which names no card. */
  @IsOptional()
  @Matches(/^[0-9a-f]{64}$/)
  cardFingerprint?: string;
}

export type CardCommand = StartChargeCommand | AuthorizeChargeCommand | Complete3dsCommand | ChargeOutcomeCommand;

/** The contract of each card command, by type. */
export const cardCommandContracts = {
  startCharge: StartChargeCommand,
  authorize: AuthorizeChargeCommand,
  complete3ds: Complete3dsCommand,
  chargeOutcome: ChargeOutcomeCommand,
} satisfies Record<CardCommand['type'], new () => unknown>;

/** card-processor's answer: what the caller sees, plus what the gateway records on the checkout. */
export interface CardChargeState extends CardChargeResponse {
  chargeId: string;
  checkoutReference: string;
  businessId: string;
  maskedPan: string;
  /** Kobo, as charged. */
  amount: string;
  /**
   * How the ledger booked a charge that succeeded with this request: outlet-service books it from
   * card.charge.succeeded and answers the gateway itself, with card-processor's answer and this.
   * Absent when the charge succeeded earlier (a retry): the gateway then asks the ledger.
   */
  checkout?: CheckoutPaymentResult;
}

/** What each card command answers with: the gateway's client and card-processor's handlers are both held to it. */
export interface CardCommandResults {
  startCharge: CardChargeState;
  authorize: CardChargeState;
  complete3ds: CardChargeState;
  chargeOutcome: CardChargeState | null;
}
