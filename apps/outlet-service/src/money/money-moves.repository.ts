import { Injectable } from '@nestjs/common';
import { CheckoutOutcome, ErrorCode, ErrorCodes } from '@payments/contracts';
import { requestHash } from '@payments/platform-crypto';
import { preparedQuery } from '@payments/platform-database';
import { apiError, DomainErrorCode } from '@payments/platform-envelope';
import { requesterDeadline } from '@payments/platform-kafka';
import { outboxCommitted, OutboxRow } from '@payments/platform-outbox';
import { DataSource, QueryFailedError } from 'typeorm';

import { CommandKey } from './money-commands.repository';
import { Charge } from './price';
import { WalletKind } from './wallets.repository';

export interface MoneyMove<T> {
  businessId: string;
  /** The command's idempotency key and kind; a repeat answers `result` as stored the first time. */
  key: CommandKey;
  kind: string;
  request: object;
  source: string;
  destination: string;
  amount: bigint;
  /** Wallet types either side may be; any other wallet is not found. */
  walletTypes: WalletKind[];
  entryId: string;
  /** The journal entry's kind, when it differs from the command's. */
  entryKind?: string;
  entryReference: string;
  narration: string | null;
  at: Date;
  result: T;
  event: OutboxRow | null;
  /** A checkout this payment decides; when something decided it first, CheckoutAlreadyDecided and nothing moves. */
  outcome?: CheckoutOutcome;
  /** The payment's fee, taken from what reaches `destination`, and the wallets it goes to (null: none). */
  charge?: Charge;
  feeWallets?: { revenue: string | null; commission: string | null };
}

/** The move as outlets.move_money reads it (ledger/move-money.sql.ts): one object, each field named. */
function namedMove<T>(move: MoneyMove<T>): object {
  return {
    business: move.businessId,
    namespace: move.key.namespace,
    reference: move.key.reference,
    kind: move.kind,
    requestHash: requestHash(move.kind, move.request),
    source: move.source,
    destination: move.destination,
    amount: move.amount.toString(),
    walletTypes: move.walletTypes,
    entryId: move.entryId,
    entryKind: move.entryKind ?? move.kind,
    entryReference: move.entryReference,
    narration: move.narration,
    at: move.at,
    result: move.result,
    outbox: move.event,
    outcome: move.outcome ?? null,
    fee: (move.charge?.fee ?? 0n).toString(),
    commission: (move.charge?.commission ?? 0n).toString(),
    revenueWallet: move.feeWallets?.revenue ?? null,
    commissionWallet: move.feeWallets?.commission ?? null,
    deadline: requesterDeadline(),
  };
}

/** move_money found the checkout already ended: the payment must be booked another way. */
export class CheckoutAlreadyDecided extends Error {
  constructor(checkoutReference: string) {
    super(`Checkout ${checkoutReference} has already ended`);
    this.name = 'CheckoutAlreadyDecided';
  }
}

/**
 * Moves money between two wallets with outlets.move_money: claim, locks, balance check,
 * balanced entry, outbox event and stored answer in one database round trip. A refusal
 * (unknown wallet, insufficient funds, a reused reference, a requester that stopped waiting)
 * comes back as its error code.
 */
@Injectable()
export class MoneyMovesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async move<T>(move: MoneyMove<T>): Promise<T> {
    try {
      const [{ result }] = await preparedQuery<{ result: T }>(
        this.dataSource,
        'outlets.move_money',
        'SELECT outlets.move_money($1) AS result',
        [JSON.stringify(namedMove(move))],
      );
      if (move.event) outboxCommitted(this.dataSource);
      return result;
    } catch (error) {
      if (move.outcome && refusalOf(error, 'CHECKOUT_DECIDED')) {
        throw new CheckoutAlreadyDecided(move.outcome.checkoutReference);
      }
      const refusal = refusalOf(error);
      if (refusal) throw apiError(refusal.code, refusal.message);
      throw error;
    }
  }
}

/**
 * A refusal raised by move_money (P0001, the code as its message), if `error` is one. Never
 * VALIDATION_FAILED, whose answer names fields the database does not know of.
 */
function refusalOf(error: unknown, expected?: string): { code: DomainErrorCode; message: string } | null {
  const driverError = error instanceof QueryFailedError ? error.driverError : error;
  const { code, message, detail } = (driverError ?? {}) as { code?: string; message?: string; detail?: string };
  const known = ErrorCodes.includes(message as ErrorCode) && message !== 'VALIDATION_FAILED';
  if (code !== 'P0001' || (expected ? message !== expected : !known)) return null;
  return { code: message as DomainErrorCode, message: detail ?? message! };
}
