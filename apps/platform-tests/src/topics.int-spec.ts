import { allTopics } from '@payments/contracts';
import { eventually, PrivateBroker } from '@payments/testing';

import { nodeScriptSync, spawnApp, waitForReady } from './apps';

jest.setTimeout(180_000);

/** Topics are an operator's declaration, applied by npm run topics:apply: the apps create none. */
describe('Kafka topics as declarations', () => {
  const broker = new PrivateBroker(19520);
  const port = 19525;

  beforeAll(() => broker.start({ topics: false }));
  afterAll(() => broker.destroy());

  const platformTopicsOnBroker = async () => {
    const admin = broker.client('topics-check').admin();
    await admin.connect();
    try {
      const names = new Set(await admin.listTopics());
      return allTopics.filter((topic) => names.has(topic.name)).map((topic) => topic.name);
    } finally {
      await admin.disconnect();
    }
  };
  const topicsApply = () => nodeScriptSync('tools/runtime/topics-apply.cjs', { KAFKA_BROKERS: broker.brokers });

  const topicsCheck = () =>
    nodeScriptSync('tools/runtime/topics-apply.cjs', { KAFKA_BROKERS: broker.brokers, TOPICS_CHECK_SECONDS: '1' }, [
      '--check',
    ]);

  it('starts an app without its topics not ready, naming what is missing, and ready once an operator applies them', async () => {
    // Where another owner makes them (Strimzi), the check writes nothing and fails naming them.
    const unchecked = topicsCheck();
    expect(unchecked.status).toBe(1);
    expect(unchecked.stderr).toContain('not as declared: partner.events.v1');
    expect(await platformTopicsOnBroker()).toEqual([]);

    const app = spawnApp('pos-ingest', { PORT: String(port), KAFKA_BROKERS: broker.brokers });
    try {
      const notReady = await eventually(async () => {
        const answer = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
        return answer?.status === 503
          ? ((await answer.json()) as { data: { checks: { topics: { reason: string } } } })
          : undefined;
      }, 60_000);
      expect(notReady.data.checks.topics.reason).toContain('pos.transactions.v1 is missing');
      expect(notReady.data.checks.topics.reason).toContain('npm run topics:apply');
      expect(await platformTopicsOnBroker()).toEqual([]);

      const applied = topicsApply();
      expect(applied.status).toBe(0);
      expect(applied.stdout).toContain('created: partner.events.v1');
      expect(await platformTopicsOnBroker()).toEqual(allTopics.map((topic) => topic.name));
      await waitForReady(port, app, 30_000);

      // Applied again, it finds nothing to do.
      const again = topicsApply();
      expect([again.status, again.stdout.trim()]).toEqual([0, `${allTopics.length} topics as declared`]);
      const checked = topicsCheck();
      expect([checked.status, checked.stdout.trim()]).toEqual([
        0,
        `${allTopics.length} topics as declared (checked, not written)`,
      ]);
    } finally {
      app.process.kill('SIGTERM');
      await app.exited;
    }
  });
});
