import { TransactionEventData } from '@payments/contracts';

import { Charge, noCharge } from './price';
import { creditFigures } from './pricing.service';

type Given = Omit<
  TransactionEventData,
  'netAmount' | 'fee' | 'commission' | 'sessionId' | 'customerReference' | 'comment'
> &
  Partial<Pick<TransactionEventData, 'sessionId' | 'customerReference' | 'comment'>> & {
    /** What the payment was charged; free (transfers between wallets, sweeps) when absent. */
    charge?: Charge;
  };

/**
 * The common eventData of a money event. `amount` is gross: what the payer paid, or what left
 * the wallet; `netAmount` is amount − fee: what the wallet received, or what the beneficiary did.
 */
export function transactionEvent({ charge = noCharge, ...given }: Given): TransactionEventData {
  return {
    sessionId: null,
    customerReference: null,
    comment: null,
    ...given,
    ...creditFigures(BigInt(given.amount), charge),
  };
}
