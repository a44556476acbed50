import { TransactionEventData } from '@payments/contracts';

import { transactionEvent } from '../money/transaction-event';
import { Wallet } from '../money/wallets.repository';
import { RefundRow } from './refunds.repository';

const statusOf = { PENDING: 'PROCESSING', PROCESSED: 'SUCCESS', FAILED: 'FAILED' } as const;

/** eventData of refund.pending, refund.processed and refund.failed: a debit of the wallet the payment reached. */
export function refundEvent(refund: RefundRow, wallet: Wallet, outletId: string | null): TransactionEventData {
  return transactionEvent({
    productType: 'refund',
    amount: refund.amount,
    transactionStatus: statusOf[refund.status],
    transactionReference: refund.reference,
    comment: refund.reason === '' ? null : refund.reason,
    createdAt: refund.updated_at.toISOString(),
    transactionAccount: wallet.accountNumber?.trim() ?? wallet.id,
    transactionType: 'DEBIT',
    details: {
      refundedTransactionReference: refund.transaction_reference,
      refundedProductType: refund.product_type,
      walletId: wallet.id,
      outletId,
    },
  });
}
