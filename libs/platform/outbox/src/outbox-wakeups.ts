import {
  DataSource,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';

const wroteOutbox = Symbol('wroteOutbox');
const listeners = new WeakMap<DataSource, Set<() => void>>();
const watched = new WeakSet<DataSource>();

/** Notes that the transaction of `queryRunner` wrote an outbox row: its commit wakes the relay. */
export function markOutboxWritten(queryRunner: QueryRunner): void {
  (queryRunner as QueryRunner & { [wroteOutbox]?: boolean })[wroteOutbox] = true;
}

/** Wakes this process's relays of `dataSource`: rows were just committed outside a TypeORM transaction. */
export function outboxCommitted(dataSource: DataSource): void {
  for (const listener of listeners.get(dataSource) ?? []) listener();
}

/**
 * Calls `listener` after every commit on `dataSource` that wrote outbox rows, so a relay
 * publishes them at once without polling the table or asking PostgreSQL to notify it. Rows
 * committed by another process are that process's relay's to publish (or a poll's, if it died).
 */
export function onOutboxCommit(dataSource: DataSource, listener: () => void): () => void {
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
    const runner = queryRunner as QueryRunner & { [wroteOutbox]?: boolean };
    const wrote = runner[wroteOutbox] === true;
    delete runner[wroteOutbox];
    return wrote;
  };
  return {
    afterTransactionCommit: (event: TransactionCommitEvent) => {
      if (take(event.queryRunner)) outboxCommitted(dataSource);
    },
    afterTransactionRollback: (event: TransactionRollbackEvent) => void take(event.queryRunner),
  };
}
