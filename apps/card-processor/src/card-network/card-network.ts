/**
 * What card-processor asks of a card network, whatever its wire protocol. The flows speak only
 * this; `Iso8583Network` is the contract of docs/card-network.md, and another switch or dialect
 * is another implementation of it.
 */

/** Which host a business's cards go to: sandbox businesses to the sandbox host, live ones to the live host. */
export type NetworkName = 'sandbox' | 'live';

/** The numbers that name one message on a network: DE32, DE11, DE37 and DE7. */
export interface NetworkTrace {
  acquirerId: string;
  stan: string;
  rrn: string;
  transmittedAt: Date;
}

export type AccountType = 'default' | 'savings' | 'current' | 'credit';

/** How the card was read: chip with or without a PIN, the magnetic stripe, or not present (online). */
export type EntryMode = 'chip-pin' | 'chip' | 'stripe' | 'not-present';

/** The business and terminal a payment is made at, as the network knows them. */
export interface CardAcceptor {
  merchantId: string;
  terminalId: string;
  /** Name and location, as the cardholder's statement shows it. */
  nameAndLocation: string;
  categoryCode: string;
}

/** A purchase or a refund for a network to authorise. */
export interface AuthorisationRequest {
  trace: NetworkTrace;
  kind: 'purchase' | 'refund';
  /** Kobo, as digits. */
  amount: string;
  pan: string;
  /** YYMM; a refund goes without one. */
  expiry?: string;
  accountType: AccountType;
  entryMode: EntryMode;
  acceptor: CardAcceptor;
  /** POS only: the card's sequence number, track 2 and the chip's TLVs in hex. */
  cardSequenceNumber?: string;
  track2?: string;
  iccData?: string;
  /** ISO 9564 format 0 under the network's zone PIN key, as hex; never the terminal's key. */
  pinBlock?: string;
  /** A refund names the purchase it pays back. */
  originalRrn?: string;
}

/** How a network answered an authorisation. */
export type AuthorisationAnswer =
  | { outcome: 'approved'; responseCode: string; authorisationCode: string; settlementDate: string | null }
  | { outcome: 'declined'; responseCode: string; settlementDate: string | null }
  /** Sent, but no answer that decides it (none in time, the connection lost, or 91/96): it must be reversed. */
  | { outcome: 'unknown'; responseCode: string | null; why: string }
  /** Never left this process (no connection, too many in flight): nothing to reverse. */
  | { outcome: 'not-sent'; why: string };

/** A request whose outcome was unknown, or whose approval must not stand, taken back. */
export interface ReversalRequest {
  original: Pick<AuthorisationRequest, 'trace' | 'kind' | 'amount' | 'pan' | 'accountType'> & {
    acceptor: Pick<CardAcceptor, 'merchantId' | 'terminalId'>;
  };
  /** This reversal's own STAN and time. */
  trace: NetworkTrace;
  /** A repeat of one already sent (0421 rather than 0420). */
  repeat: boolean;
}

/** A host's acknowledgement of a reversal (whatever its code), or none yet. */
export type ReversalAnswer = { acknowledged: true; responseCode: string } | { acknowledged: false; why: string };

/** A count of requests and their amount in kobo. */
export interface Tally {
  count: number;
  amount: bigint;
}

/** The platform's totals for one settlement date, from its records of the host's answers. */
export interface SettlementTotals {
  /** Approved purchases that stand (DE76, DE88). */
  purchases: Tally;
  /** Approved refunds (DE74, DE86). */
  refunds: Tally;
  /** Purchases the host approved and then reversed (DE77, DE89). */
  reversedPurchases: Tally;
  /** Purchases that stand less refunds (DE97); negative when the refunds are more. */
  net: bigint;
}

/** The totals of one settlement date, for the host to compare with its own (0500). */
export interface ReconciliationRequest {
  trace: Omit<NetworkTrace, 'rrn'>;
  /** MMDD, as the answers' DE15. */
  settlementDate: string;
  totals: SettlementTotals;
}

/** Whether the host's totals agree (`00`) or not (`95`, or any other code); or no answer. */
export type ReconciliationAnswer =
  { answered: true; agreed: boolean; responseCode: string } | { answered: false; why: string };

/** An answer that matched no request waiting for it: late, or sent twice. */
export interface UnmatchedAnswer {
  network: NetworkName;
  acquirerId: string;
  stan: string;
  rrn: string;
  answer: AuthorisationAnswer;
}

export interface CardNetwork {
  readonly name: NetworkName;
  readonly acquirerId: string;
  /** The zone PIN key (32 hex characters) PIN blocks travel to this network under; unset, none can go. */
  readonly zonePinKey?: string;
  authorise(request: AuthorisationRequest): Promise<AuthorisationAnswer>;
  reverse(request: ReversalRequest): Promise<ReversalAnswer>;
  reconcile(request: ReconciliationRequest): Promise<ReconciliationAnswer>;
  /** Where answers nobody waits for go; the flows look each up in their records. */
  onUnmatchedAnswer(listener: (answer: UnmatchedAnswer) => void): void;
  /** Ready connections to the host, for health and metrics. */
  isReady(): boolean;
  close(): Promise<void>;
}
