import { TransactionEventData } from '@payments/contracts';

type Given = Omit<
  TransactionEventData,
  'netAmount' | 'fee' | 'commission' | 'sessionId' | 'customerReference' | 'comment'
> &
  Partial<Pick<TransactionEventData, 'sessionId' | 'customerReference' | 'comment'>>;

/** The common eventData of a money event. No fees or commissions are charged yet: net is gross. */
export function transactionEvent(given: Given): TransactionEventData {
  return {
    sessionId: null,
    customerReference: null,
    comment: null,
    ...given,
    netAmount: given.amount,
    fee: '0',
    commission: '0',
  };
}
