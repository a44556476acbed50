import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';

/** Events partners receive as webhooks, on Topics.partnerEvents. */
export const PartnerEvents = {
  outletCreated: 'outlet.created',
  fundAccountSuccess: 'fundAccount.success',
  fundAccountFailed: 'fundAccount.failed',
  internalTransferSuccessful: 'internalTransfer.successful',
  walletSweptIntraSuccessful: 'walletSweptIntra.successful',
  bankTransferSuccess: 'bankTransfer.success',
  bankTransferFailed: 'bankTransfer.failed',
  webhookTest: 'webhook.test',
  checkoutSuccess: 'checkout.success',
  checkoutFailed: 'checkout.failed',
  /** A refund accepted and held, or money a card captured after its checkout ended, kept aside to pay back. */
  refundPending: 'refund.pending',
  refundProcessed: 'refund.processed',
  refundFailed: 'refund.failed',
} as const;

export type PartnerEventName = (typeof PartnerEvents)[keyof typeof PartnerEvents];

/** The Kafka event type of every partner event; the webhook name travels in `event`. */
export const PartnerEventV1 = 'partner.event.v1';

/** Payload of a partner event: exactly what the webhook body carries, less the signature. */
export class PartnerEventV1Payload<T = Record<string, unknown>> {
  @IsIn(Object.values(PartnerEvents))
  event!: PartnerEventName;

  @IsObject()
  eventData!: T;

  /** A checkout's callBackUrl, delivered to as well as the business webhook URL. */
  @IsOptional()
  @IsString()
  callbackUrl?: string;
}

export interface Party {
  name: string | null;
  accountNumber: string | null;
  bankCode: string | null;
}

/**
 * The common `eventData` fields of money events (spec: Events). Amounts are kobo strings;
 * only strings, numbers, booleans, null, arrays and objects, so any receiver's re-serialisation
 * reproduces the signed bytes.
 */
export interface TransactionEventData {
  sessionId: string | null;
  productType: string;
  amount: string;
  netAmount: string;
  fee: string;
  commission: string;
  transactionStatus: 'SUCCESS' | 'FAILED' | 'PROCESSING';
  transactionReference: string;
  customerReference: string | null;
  comment: string | null;
  createdAt: string;
  transactionAccount: string;
  transactionType: 'CREDIT' | 'DEBIT';
  sender?: Party;
  beneficiary?: Party;
  details?: TransactionEventDetails;
  metadata?: Record<string, unknown>;
}

/**
 * `details` of a money event: free-form, with the outlets the money moved at named thus when
 * the event knows them. Each is optional, since events made before they were added lack them;
 * null means a wallet of no outlet (the settlement wallet).
 */
export interface TransactionEventDetails extends Record<string, unknown> {
  /** The outlet of the wallet the money moved on (a payout's deposit wallet, a sweep's collection wallet). */
  outletId?: string | null;
  /** An internal transfer's source wallet's outlet. */
  sourceOutletId?: string | null;
  /** An internal transfer's destination wallet's outlet. */
  destinationOutletId?: string | null;
}
