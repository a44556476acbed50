import { Matches } from 'class-validator';

/**
 * What a payment was charged, in kobo as strings: `amount` = `netAmount` + `fee`. On a credit,
 * netAmount is what the wallet received; on a payout, what the beneficiary received.
 * `commission` is the partner's share of the fee, where its price plan gives one.
 */
export class ChargeFigures {
  @Matches(/^\d+$/)
  fee!: string;

  @Matches(/^\d+$/)
  commission!: string;

  @Matches(/^\d+$/)
  netAmount!: string;
}
