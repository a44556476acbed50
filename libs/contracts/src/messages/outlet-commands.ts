import type { PaymentMethod } from '../http/checkout/checkout.dto';
import type { CreateOutletRequest } from '../http/outlets/create-outlet.request';
import type { SweepSettingsRequest } from '../http/outlets/sweep-settings.request';
import type {
  CreditVirtualAccountRequest,
  CreditVirtualAccountResponse,
} from '../http/sandbox/credit-virtual-account.request';
import type { BankTransferRequest } from '../http/transfers/bank-transfer.request';
import type { InternalTransferRequest } from '../http/transfers/internal-transfer.request';

/**
 * Requests the gateway sends to outlet-service on Topics.outletCommands (Kafka request/reply).
 * Every command names the business it acts for: outlet-service never trusts anything else.
 * A command may be delivered more than once (a redelivery, or the gateway's caller retrying
 * after a 503): every one that creates something or moves money carries what makes it
 * idempotent (a partner reference, an Idempotency-Key, a session or payment id, a command id).
 */
export type OutletCommand =
  | {
      type: 'createOutlet';
      businessId: string;
      request: CreateOutletRequest;
      /** The partner's Idempotency-Key header: a retry with the same key and body gets the first answer. */
      idempotencyKey?: string;
      /** Chosen by the gateway per HTTP request, so a redelivered command creates nothing twice. */
      commandId: string;
    }
  | { type: 'getOutlet'; businessId: string; outletId: string }
  | { type: 'getSettlementWallet'; businessId: string }
  | { type: 'searchOutlets'; businessId: string; search?: string; page: number; limit: number }
  | { type: 'internalTransfer'; businessId: string; request: InternalTransferRequest }
  | { type: 'bankTransfer'; businessId: string; request: BankTransferRequest }
  | { type: 'setSweepSettings'; businessId: string; request: SweepSettingsRequest }
  | {
      type: 'creditVirtualAccount';
      /** The caller: the business whose test keys drove the sandbox rail. */
      businessId: string;
      accountNumber: string;
      /** The rail's session id (the caller's, or one the gateway chose): a repeated one credits once. */
      sessionId: string;
      request: CreditVirtualAccountRequest;
      idempotencyKey?: string;
    }
  | { type: 'assignCheckoutAccount'; businessId: string; checkoutReference: string; amount: string; expiresAt: string }
  | {
      type: 'settleCheckoutPayment';
      businessId: string;
      checkoutReference: string;
      amount: string;
      method: 'qr-wallet' | 'card';
      /** The card charge id, or the id the gateway gave a QR wallet payment. */
      paymentId: string;
      maskedCard?: string;
    }
  | { type: 'closeCheckouts'; checkouts: CheckoutClosing[] };

/** Ends a checkout FAILED unless a payment decided it first. */
export interface CheckoutClosing {
  businessId: string;
  checkoutReference: string;
  comment: string;
  /** The method whose failure ends it (a declined card), if any. */
  method?: PaymentMethod;
  maskedCard?: string;
}

/** A checkout's dynamic bank account: pay exactly `amount` into it before `expiresAt`. */
export interface CheckoutAccount {
  accountNumber: string;
  accountName: string;
  bankName: string;
  amount: string;
  expiresAt: string;
}

/**
 * How a checkout ended, as the ledger decided it: the first payment booked or the first
 * closing wins, and nothing changes it afterwards.
 */
export interface CheckoutOutcome {
  businessId: string;
  checkoutReference: string;
  status: 'SUCCESS' | 'FAILED';
  method: PaymentMethod | null;
  /** The payment that paid it: transfer session id, card charge id or QR payment id. */
  paymentId: string | null;
  maskedCard: string | null;
  comment: string;
}

/** The answer to settleCheckoutPayment: whether this payment paid the checkout, and its outcome. */
export interface CheckoutPaymentResult {
  outcome: CheckoutOutcome;
  /** false: the checkout had ended; a card payment's money waits in the suspense wallet for a refund. */
  accepted: boolean;
}

/** The answer to creditVirtualAccount; a checkout account's credit also tells how the checkout ended. */
export interface CreditVirtualAccountResult extends CreditVirtualAccountResponse {
  checkoutOutcome?: CheckoutOutcome;
}

/** outlet-service → gateway on Topics.checkoutPayments: how a checkout ended, keyed by business id. */
export const CheckoutDecidedV1 = 'checkout.decided.v1';

export type CheckoutDecidedV1Payload = CheckoutOutcome;

/** Written by earlier versions for paid checkouts; the gateway still reads it during an upgrade. */
export const CheckoutPaidV1 = 'checkout.paid.v1';

export interface CheckoutPaidV1Payload {
  businessId: string;
  checkoutReference: string;
  method: 'pay-with-transfer' | 'card';
  amount: string;
  sessionId: string;
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
