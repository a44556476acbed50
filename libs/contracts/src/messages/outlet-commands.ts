import type { CreditVirtualAccountRequest } from '../http/sandbox/credit-virtual-account.request';
import type { CreateOutletRequest } from '../http/outlets/create-outlet.request';
import type { SweepSettingsRequest } from '../http/outlets/sweep-settings.request';
import type { BankTransferRequest } from '../http/transfers/bank-transfer.request';
import type { InternalTransferRequest } from '../http/transfers/internal-transfer.request';

/**
 * Requests the gateway sends to outlet-service on Topics.outletCommands (Kafka request/reply).
 * Every command names the business it acts for: outlet-service never trusts anything else.
 */
export type OutletCommand =
  | { type: 'createOutlet'; businessId: string; request: CreateOutletRequest }
  | { type: 'getOutlet'; businessId: string; outletId: string }
  | { type: 'getSettlementWallet'; businessId: string }
  | { type: 'searchOutlets'; businessId: string; search?: string; page: number; limit: number }
  | { type: 'internalTransfer'; businessId: string; request: InternalTransferRequest }
  | { type: 'bankTransfer'; businessId: string; request: BankTransferRequest }
  | { type: 'setSweepSettings'; businessId: string; request: SweepSettingsRequest }
  | { type: 'creditVirtualAccount'; accountNumber: string; request: CreditVirtualAccountRequest }
  | { type: 'assignCheckoutAccount'; businessId: string; checkoutReference: string; amount: string; expiresAt: string }
  | { type: 'settleCheckoutPayment'; businessId: string; checkoutReference: string; amount: string; method: 'qr-wallet' };

/** A checkout's dynamic bank account: pay exactly `amount` into it before `expiresAt`. */
export interface CheckoutAccount {
  accountNumber: string;
  accountName: string;
  bankName: string;
  amount: string;
  expiresAt: string;
}

/** outlet-service → gateway on Topics.checkoutPayments: the checkout's money arrived. */
export const CheckoutPaidV1 = 'checkout.paid.v1';

export interface CheckoutPaidV1Payload {
  businessId: string;
  checkoutReference: string;
  method: 'pay-with-transfer' | 'card';
  amount: string;
  /** The bank session of a transfer, or the card charge id. */
  sessionId: string;
  /** Card payments: first 6 and last 4 digits. */
  maskedCard?: string;
}

export type OutletCommandType = OutletCommand['type'];

/** A failure outlet-service reports: the gateway answers it as an error envelope. */
export interface CommandError {
  code: string;
  message: string;
  status: number;
}

export type CommandReply<T = unknown> = { ok: true; data: T } | { ok: false; error: CommandError };
