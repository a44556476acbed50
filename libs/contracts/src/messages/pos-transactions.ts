/**
 * An accepted POS submission on Topics.posTransactions, keyed by serial number. Card data
 * (PAN, PIN block, track 2, ICC data, expiry) travels only inside `sealedCard`.
 */
export const PosTransactionAcceptedV1 = 'pos.transaction.accepted.v1';

export interface PosTransactionAcceptedV1Payload {
  reference: string;
  businessId: string;
  /** test: the sandbox issuer decides; live: real card rails. */
  mode: 'test' | 'live';
  serialNumber: string;
  outletId: string | null;
  amount: string;
  sequenceNumber: string;
  accountType: string;
  cardHolderName: string;
  aid: string;
  institutionCode: string;
  maskedPan: string;
  /** AES-256-GCM sealed JSON of {pan, pinBlock, track2Data, iccData, cardExpiryDate}, bound to the reference. */
  sealedCard: string;
}

/** card-processor's decision on Topics.posOutcomes; outlet-service credits or reports it. */
export const PosTransactionDecidedV1 = 'pos.transaction.decided.v1';

export interface PosTransactionDecidedV1Payload {
  reference: string;
  businessId: string;
  serialNumber: string;
  outletId: string | null;
  amount: string;
  maskedPan: string;
  approved: boolean;
  declineReason: string | null;
  decidedAt: string;
}
