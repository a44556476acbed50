import {
  DataSource,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';

const wroteOutbox = Symbol('wroteOutbox');
const listeners = new WeakMap<DataSource, Set<(awaited: boolean) => void>>();

/** What a transaction wrote to the outbox: rows, and whether a caller waits on one of them. */
type Written = 'rows' | 'awaited';
const watched = new WeakSet<DataSource>();

/**
 * Notes that the transaction of `queryRunner` wrote an outbox row: its commit wakes the relay.
 * `awaited`: a caller waits on the row's effect, so the relay publishes it without lingering.
 */
export function markOutboxWritten(queryRunner: QueryRunner, awaited = false): void {
  const runner = queryRunner as QueryRunner & { [wroteOutbox]?: Written };
  if (awaited || runner[wroteOutbox] !== 'awaited') runner[wroteOutbox] = awaited ? 'awaited' : 'rows';
}

/**
 * Wakes this process's relays of `dataSource`: rows were just committed outside a TypeORM
 * transaction. `awaited`: a caller waits on one of them (see markOutboxWritten).
 */
export function outboxCommitted(dataSource: DataSource, { awaited = false } = {}): void {
  for (const listener of listeners.get(dataSource) ?? []) listener(awaited);
}

/**
 * Calls `listener` after every commit on `dataSource` that wrote outbox rows, so a relay
 * publishes them at once without polling the table or asking PostgreSQL to notify it. Rows
 * committed by another process are that process's relay's to publish (or a poll's, if it died).
 */
export function onOutboxCommit(dataSource: DataSource, listener: (awaited: boolean) => void): () => void {
  const set = listeners.get(dataSource) ?? new Set();
  listeners.set(dataSource, set);
  set.add(listener);
  if (!watched.has(dataSource)) {
    watched.add(dataSource);
    dataSource.subscribers.push(commitWatcher(dataSource));
  }
  return () => set.delete(listener);
}

function commitWatcher(dataSource: DataSource): EntitySubscriberInterface {
  const take = (queryRunner: QueryRunner) => {
    const runner = queryRunner as QueryRunner & { [wroteOutbox]?: Written };
    const wrote = runner[wroteOutbox];
    delete runner[wroteOutbox];
    return wrote;
  };
  return {
    afterTransactionCommit: (event: TransactionCommitEvent) => {
      const wrote = take(event.queryRunner);
      if (wrote) outboxCommitted(dataSource, { awaited: wrote === 'awaited' });
    },
    afterTransactionRollback: (event: TransactionRollbackEvent) => void take(event.queryRunner),
  };
}
