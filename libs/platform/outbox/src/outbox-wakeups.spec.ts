import { DataSource, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent } from 'typeorm';

import { markOutboxWritten, onOutboxCommit, outboxCommitted } from './outbox-wakeups';

/** A data source with only what the commit watcher uses: its subscribers, which the test calls as commits happen. */
function dataSource() {
  const subscribers: EntitySubscriberInterface[] = [];
  const source = { subscribers } as unknown as DataSource;
  const commit = (queryRunner: QueryRunner) => {
    for (const subscriber of subscribers) {
      void subscriber.afterTransactionCommit?.({ queryRunner } as unknown as TransactionCommitEvent);
    }
  };
  return { source, commit };
}

describe('outbox wake-ups', () => {
  it('wakes the relay after a commit that wrote rows, saying whether a caller waits on one', () => {
    const { source, commit } = dataSource();
    const heard: boolean[] = [];
    onOutboxCommit(source, (awaited) => heard.push(awaited));
    const plain = {} as QueryRunner;
    const awaited = {} as QueryRunner;
    markOutboxWritten(plain);
    markOutboxWritten(awaited, true);
    // A later row nobody waits on does not take the wait away.
    markOutboxWritten(awaited);
    commit(plain);
    commit(awaited);
    commit({} as QueryRunner);
    commit(plain);
    expect(heard).toEqual([false, true]);
  });

  it('passes a commit made outside TypeORM’s transactions on as told', () => {
    const { source } = dataSource();
    const heard: boolean[] = [];
    const stop = onOutboxCommit(source, (awaited) => heard.push(awaited));
    outboxCommitted(source);
    outboxCommitted(source, { awaited: true });
    stop();
    outboxCommitted(source, { awaited: true });
    expect(heard).toEqual([false, true]);
  });
});
