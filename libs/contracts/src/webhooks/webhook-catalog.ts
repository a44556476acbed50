import { PartnerEventName, PartnerEvents } from '../events/partner-event.v1';

/**
 * Every webhook partners receive, as documentation: what each `eventData` is and an example.
 * The API documents (OpenAPI `webhooks`) are built from it; the schemas below describe
 * TransactionEventData (partner-event.v1.ts), which money events build with transactionEvent().
 */
type JsonSchema = Record<string, unknown>;

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const kobo = { type: 'string', pattern: '^[0-9]+$', description: 'kobo, as a string' };
const party = {
  type: 'object',
  properties: { name: nullableText, accountNumber: nullableText, bankCode: nullableText },
};

/** JSON schemas of the webhook bodies' parts, under their component names. */
export const webhookSchemas: Record<string, JsonSchema> = {
  TransactionEventData: {
    type: 'object',
    description: 'The common eventData of money events. Always check transactionStatus.',
    required: [
      'productType',
      'amount',
      'netAmount',
      'fee',
      'commission',
      'transactionStatus',
      'transactionReference',
      'createdAt',
      'transactionAccount',
      'transactionType',
    ],
    properties: {
      sessionId: nullableText,
      productType: text,
      amount: kobo,
      netAmount: kobo,
      fee: kobo,
      commission: kobo,
      transactionStatus: { type: 'string', enum: ['SUCCESS', 'FAILED', 'PROCESSING'] },
      transactionReference: text,
      customerReference: nullableText,
      comment: nullableText,
      createdAt: { type: 'string', format: 'date-time' },
      transactionAccount: text,
      transactionType: { type: 'string', enum: ['CREDIT', 'DEBIT'] },
      sender: party,
      beneficiary: party,
      details: { type: 'object' },
      metadata: { type: 'object' },
    },
  },
  WebhookTestEventData: {
    type: 'object',
    required: ['message', 'businessId', 'createdAt'],
    properties: { message: text, businessId: text, createdAt: { type: 'string', format: 'date-time' } },
  },
};

const money = {
  sessionId: null,
  productType: 'collection',
  amount: '150000',
  netAmount: '150000',
  fee: '0',
  commission: '0',
  transactionStatus: 'SUCCESS',
  transactionReference: '01JD3Q8ZK4T6W2V9XG5H7M1N3P',
  customerReference: null,
  comment: null,
  createdAt: '2026-11-23T10:15:00.000Z',
  transactionAccount: '9012345678',
  transactionType: 'CREDIT',
};

function wallet(type: 'collection' | 'deposit', accountNumber: string) {
  return {
    walletId: `01JD3Q8ZK4T6W2V9XG5H7M1N${type === 'collection' ? 'C1' : 'D1'}`,
    type,
    accountNumber,
    accountName: 'Ikeja shop',
    currency: 'NGN',
    ledgerBalance: '0',
    availableBalance: '0',
    status: 'active',
    createdAt: '2026-11-23T10:15:00.000Z',
  };
}

export interface WebhookDoc {
  summary: string;
  /** The component schema of its eventData. */
  eventData: string;
  example: Record<string, unknown>;
}

/** Each webhook: when it is sent, its eventData and an example of it. */
export const webhookCatalog: Record<PartnerEventName, WebhookDoc> = {
  [PartnerEvents.outletCreated]: {
    summary: 'An outlet and its wallets were committed; eventData is the outlet as POST /outlets answered',
    eventData: 'OutletResponse',
    example: {
      outletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Q',
      accountName: 'Ikeja shop',
      externalReference: 'shop-17',
      address: '12 Allen Avenue, Ikeja',
      collectionWallet: wallet('collection', '9012345678'),
      depositWallet: wallet('deposit', '9012345679'),
      createdAt: '2026-11-23T10:15:00.000Z',
    },
  },
  [PartnerEvents.fundAccountSuccess]: {
    summary: 'Money arrived on a virtual account',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      sessionId: '000015231123101500123456789012',
      sender: { name: 'Ada Obi', accountNumber: '0123456789', bankCode: '058' },
    },
  },
  [PartnerEvents.fundAccountFailed]: {
    summary: 'A transfer into a virtual account was rejected',
    eventData: 'TransactionEventData',
    example: { ...money, transactionStatus: 'FAILED' },
  },
  [PartnerEvents.internalTransferSuccessful]: {
    summary: 'POST /transfer/internal settled',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'internal_transfer',
      transactionReference: 'order-1234',
      transactionType: 'CREDIT',
      details: {
        sourceWalletId: '01JD3Q8ZK4T6W2V9XG5H7M1NC1',
        destinationWalletId: '01JD3Q8ZK4T6W2V9XG5H7M1ND1',
        journalEntryId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Y',
        sourceOutletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Q',
        destinationOutletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Q',
      },
    },
  },
  [PartnerEvents.walletSweptIntraSuccessful]: {
    summary: 'An automatic sweep moved a collection balance to the settlement wallet; carries sweepReference',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'sweep',
      transactionType: 'DEBIT',
      details: { sweepReference: 'sweep-01JD3Q8ZK4' },
    },
  },
  [PartnerEvents.bankTransferSuccess]: {
    summary: 'A payout settled',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'payout',
      transactionReference: 'payout-77',
      transactionType: 'DEBIT',
      beneficiary: { name: 'Bola Ade', accountNumber: '0690000031', bankCode: '058' },
      details: {
        walletId: '01JD3Q8ZK4T6W2V9XG5H7M1ND1',
        journalEntryId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Z',
        outletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Q',
      },
    },
  },
  [PartnerEvents.bankTransferFailed]: {
    summary: 'A payout was rejected; its amount is back in the wallet',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'payout',
      transactionReference: 'payout-78',
      transactionStatus: 'FAILED',
      transactionType: 'DEBIT',
      details: { walletId: '01JD3Q8ZK4T6W2V9XG5H7M1ND1', journalEntryId: null, outletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Q' },
    },
  },
  [PartnerEvents.webhookTest]: {
    summary: 'You asked for it with POST /webhooks/test',
    eventData: 'WebhookTestEventData',
    example: {
      message: 'This is a test event from your payments dashboard',
      businessId: '01JD3Q8ZK4T6W2V9XG5H7M1N3R',
      createdAt: '2026-11-23T10:15:00.000Z',
    },
  },
  [PartnerEvents.checkoutSuccess]: {
    summary: 'A checkout was paid; also sent to its callBackUrl',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'checkout',
      transactionReference: '01JD3Q8ZK4T6W2V9XG5H7M1N3S',
      transactionAccount: '01JD3Q8ZK4T6W2V9XG5H7M1N3S',
      customerReference: 'ada@example.ng',
      metadata: {},
    },
  },
  [PartnerEvents.checkoutFailed]: {
    summary: 'A checkout ended unpaid (expired or declined); also sent to its callBackUrl',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'checkout',
      transactionStatus: 'FAILED',
      comment: 'Checkout expired',
      metadata: {},
    },
  },
  [PartnerEvents.refundPending]: {
    summary:
      'A refund was accepted and its amount held (POST /refunds), or a card was charged for a checkout that had ' +
      'already ended and the money is kept aside to be paid back',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'card',
      transactionStatus: 'PROCESSING',
      transactionType: 'DEBIT',
      comment: 'The checkout was already paid',
    },
  },
  [PartnerEvents.refundProcessed]: {
    summary: 'A refund was paid back to the payer; its amount has left the wallet',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'refund',
      transactionReference: 'RFD-01JD3Q8ZK4T6W2V9XG5H7M1N3T',
      transactionType: 'DEBIT',
      comment: 'Customer returned the goods',
      details: {
        refundedTransactionReference: '01JD3Q8ZK4T6W2V9XG5H7M1N3S',
        refundedProductType: 'checkout',
        walletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3U',
        outletId: null,
      },
    },
  },
  [PartnerEvents.refundFailed]: {
    summary: 'The rail or card issuer declined a refund; its held amount is available again',
    eventData: 'TransactionEventData',
    example: {
      ...money,
      productType: 'refund',
      transactionReference: 'RFD-01JD3Q8ZK4T6W2V9XG5H7M1N3V',
      transactionStatus: 'FAILED',
      transactionType: 'DEBIT',
      details: {
        refundedTransactionReference: 'POS-01JD3Q8ZK4T6W2V9XG5H7M1N3W',
        refundedProductType: 'pos',
        walletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3X',
        outletId: '01JD3Q8ZK4T6W2V9XG5H7M1N3Q',
      },
    },
  },
};
