import { SchemaState } from '@payments/platform-database';
import { DomainError } from '@payments/platform-envelope';
import { KafkaAdmin, KafkaConsumers } from '@payments/platform-kafka';
import { Metrics } from '@payments/platform-metrics';
import { DataSource } from 'typeorm';

import { DependencyWatch } from './dependency-watch';
import { HealthController, ShutdownState } from './health.controller';

/** A dependency that answers, fails, or never answers. */
type Behaviour = 'answers' | 'fails' | 'hangs';
const behave = (behaviour: Behaviour) =>
  behaviour === 'answers'
    ? Promise.resolve()
    : behaviour === 'fails'
      ? Promise.reject(new Error('connection refused'))
      : new Promise<void>(() => undefined);

function instance({
  database = 'answers',
  kafka = 'answers',
  missing = [] as string[],
  topics = true,
  joinProblem = null as string | null,
} = {}) {
  const dataSource = { query: () => behave(database as Behaviour) } as unknown as DataSource;
  const admin = {
    reachable: () => behave(kafka as Behaviour),
    topicsPresent: topics,
    topicsProblem: () => (topics ? '' : 'Kafka topics not as declared (card.commands.v1 missing)'),
  } as unknown as KafkaAdmin;
  const metrics = new Metrics('test');
  const watch = new DependencyWatch(dataSource, admin, metrics);
  const schema = {
    behind: async () =>
      missing.length ? `${missing.length} migrations not applied yet, the first ${missing[0]}` : null,
  } as unknown as SchemaState;
  const shutdown = new ShutdownState();
  const consumers = { joinProblem } as KafkaConsumers;
  return { controller: new HealthController(schema, admin, shutdown, watch, consumers), watch, shutdown, metrics };
}

async function refusal(ready: Promise<unknown>): Promise<{ message: string; details: unknown }> {
  const error = await ready.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as { message: string; details: unknown };
}

describe('readiness', () => {
  it('stays ready while PostgreSQL and the brokers fail or hang, reporting them as last seen', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const { controller, watch, metrics } = instance({ database: 'hangs', kafka: 'fails' });
      const looked = watch.look();
      await jest.advanceTimersByTimeAsync(2000);
      await looked;
      expect(await controller.ready()).toEqual({
        schema: { status: 'up' },
        topics: { status: 'up' },
        database: { status: 'down', reason: expect.stringMatching(/2000 ms/) },
        kafka: { status: 'down', reason: 'connection refused' },
      });
      const exported = await metrics.registry.getSingleMetricAsString('platform_dependency_up');
      expect(exported).toMatch(/platform_dependency_up\{dependency="postgresql",service="test"\} 0/);
      expect(exported).toMatch(/platform_dependency_up\{dependency="kafka",service="test"\} 0/);
    } finally {
      jest.useRealTimers();
    }
  });

  it('says the dependencies are up once they answer', async () => {
    const { controller, watch, metrics } = instance();
    await watch.look();
    expect(await controller.ready()).toMatchObject({ database: { status: 'up' }, kafka: { status: 'up' } });
    expect(await metrics.registry.getSingleMetricAsString('platform_dependency_up')).toMatch(
      /dependency="postgresql",service="test"\} 1/,
    );
  });

  it('is refused while a migration this release ships is not applied, naming it', async () => {
    const { controller } = instance({ missing: ['LateApprovals1763769600066'] });
    const { details } = await refusal(controller.ready());
    expect(details).toMatchObject({
      checks: { schema: { status: 'down', reason: expect.stringContaining('LateApprovals1763769600066') } },
    });
  });

  it("is refused while the app's topics are not as declared", async () => {
    const { controller } = instance({ topics: false });
    const { details } = await refusal(controller.ready());
    expect(details).toMatchObject({
      checks: { topics: { status: 'down', reason: expect.stringContaining('card.commands.v1') } },
    });
  });

  it('is refused while its consumers have not joined their groups, saying why', async () => {
    const { controller } = instance({
      joinProblem: 'the consumers did not join their groups: SASL authentication failed',
    });
    const { details } = await refusal(controller.ready());
    expect(details).toMatchObject({
      checks: { consumers: { status: 'down', reason: expect.stringContaining('SASL authentication failed') } },
    });
  });

  it('is refused once the instance drains', async () => {
    const { controller, shutdown } = instance();
    expect(await controller.ready()).toMatchObject({ schema: { status: 'up' } });
    shutdown.beforeApplicationShutdown();
    expect((await refusal(controller.ready())).message).toBe('shutting down');
  });
});

describe('the dependency watch', () => {
  it('does not start a second query while the first one has had no answer', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      let queries = 0;
      const dataSource = {
        query: () => {
          queries += 1;
          return new Promise(() => undefined);
        },
      } as unknown as DataSource;
      const admin = { reachable: async () => undefined } as unknown as KafkaAdmin;
      const watch = new DependencyWatch(dataSource, admin, new Metrics('test'));
      for (let look = 0; look < 3; look += 1) {
        const looked = watch.look();
        await jest.advanceTimersByTimeAsync(2000);
        await looked;
      }
      expect(queries).toBe(1);
      expect(watch.observations().postgresql).toEqual({
        status: 'down',
        reason: 'the look before has had no answer either',
      });
    } finally {
      jest.useRealTimers();
    }
  });
});
