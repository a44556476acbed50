import { IsISO8601, IsNotEmpty, IsObject, IsOptional, IsString } from 'class-validator';

import type { CardChargeState } from '../messages/card-commands.v1';
import { ForCheckout } from '../messages/scopes';
import { IsKoboAmount } from '../validation/kobo-amount';

/**
 * card-processor → outlet-service on Topics.cardCharges, written with the charge's SUCCESS:
 * the money the card paid goes to the business's settlement wallet, once per checkout.
 */
export const CardChargeSucceededV1 = 'card.charge.succeeded.v1';

export class CardChargeSucceededV1Payload extends ForCheckout {
  @IsString()
  @IsNotEmpty()
  chargeId!: string;

  @IsKoboAmount()
  amount!: string;

  @IsString()
  maskedPan!: string;

  @IsISO8601()
  succeededAt!: string;

  /**
   * card-processor's answer to the request that captured the card, when that request's reply
   * travels with this event (its reply headers): outlet-service books the charge and sends this
   * answer on to the gateway with the booking's outcome.
   */
  @IsOptional()
  @IsObject()
  answer?: CardChargeState;
}
