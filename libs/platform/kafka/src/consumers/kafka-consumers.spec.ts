import { Controller } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Topics } from '@payments/contracts';
import { PlatformEnv } from '@payments/platform-config';
import { apiError } from '@payments/platform-envelope';
import { EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';

import { replyAddressToForward, replyForwarded } from '../commands/command-replies';
import { KafkaAdmin } from '../kafka-admin';
import { KafkaProducer } from '../producer';
import { BulkYield } from './bulk-yield';
import { ConsumerFactory } from './consumer-factory';
import { ConsumerMetrics } from './consumer-metrics';
import { PoisonMessageError, RetryLaterError } from './failures';
import { BatchProgress, CommandHandler, EventBatchHandler, EventHandler, MessageContext } from './handlers';
import { KafkaConsumers } from './kafka-consumers';

/** What a handler does with each message it is given, in order. */
let script: ((value: unknown) => Promise<unknown>)[] = [];

@Controller()
class Handlers {
  readonly seen: unknown[] = [];

  @EventHandler(Topics.cardCharges)
  async onCharge(value: unknown): Promise<void> {
    this.seen.push(value);
    await (script.shift() ?? (async () => undefined))(value);
  }

  @EventHandler(Topics.posOutcomes, 'bulk')
  async onPosOutcome(value: unknown): Promise<void> {
    this.seen.push(value);
  }

  /** A bulk batch worked through in parts: it keeps its membership and gives way itself. */
  @EventBatchHandler(Topics.partnerEvents, 'bulk')
  async onPartnerEvents(values: unknown[], _contexts: MessageContext[], progress?: BatchProgress): Promise<void> {
    this.seen.push(...values);
    await progress?.heartbeat();
    await progress?.giveWay(5);
  }

  /** Reply addresses handed on by requests for the outlets named `handed-on…`. */
  readonly handedOn: (Record<string, string> | null)[] = [];

  @CommandHandler(Topics.outletCommands)
  async onCommand(value: { outletId: string }): Promise<unknown> {
    this.seen.push(value);
    if (value.outletId.startsWith('handed-on')) {
      this.handedOn.push(replyAddressToForward());
      replyForwarded();
      if (value.outletId === 'handed-on-then-failed') throw apiError('OUTLET_NOT_FOUND', 'Outlet gone');
    }
    if (value.outletId === 'missing') throw apiError('OUTLET_NOT_FOUND', 'Outlet missing not found');
    return `outlet ${value.outletId}`;
  }
}

/**
 * A kafkajs stand-in: the test calls eachBatch itself and sees what was resolved, paused and sent.
 * The first `refusedConnects` connects fail, as against a broker that refuses the app.
 */
function harness({ refusedConnects = 0 } = {}) {
  const connections = { refused: 0, disconnected: 0 };
  const handlers = new Handlers();
  /** Each consumer's eachBatch, by the topics it subscribed to. */
  const runs = new Map<string, (payload: EachBatchPayload) => Promise<void>>();
  /** How each consumer was told to run. */
  const configs: { autoCommit?: boolean }[] = [];
  const newConsumer = () => {
    // As kafkajs's consumer, an emitter: every listener of an event hears it.
    const listeners = new Map<string, (() => void)[]>();
    let topics: string[] = [];
    return {
      events: { GROUP_JOIN: 'join', CRASH: 'crash' },
      on: (event: string, listener: () => void) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
      connect: async () => {
        if (connections.refused < refusedConnects) {
          connections.refused++;
          throw new Error('SASL authentication failed');
        }
      },
      disconnect: async () => void connections.disconnected++,
      subscribe: async (subscription: { topics: string[] }) => void (topics = subscription.topics),
      run: async (config: { autoCommit?: boolean; eachBatch: (payload: EachBatchPayload) => Promise<void> }) => {
        configs.push(config);
        for (const topic of topics) runs.set(topic, config.eachBatch);
        for (const listener of listeners.get('join') ?? []) listener();
      },
    };
  };
  const sent: {
    topic: string;
    message: { key?: unknown; value: unknown; partition?: number; headers?: Record<string, string> };
  }[] = [];
  const producer = {
    send: async (topic: string, message: (typeof sent)[number]['message']) => void sent.push({ topic, message }),
  } as unknown as KafkaProducer;
  const discovery = {
    getControllers: () => [{ name: 'Handlers', instance: handlers }],
    getProviders: () => [],
  } as unknown as DiscoveryService;
  const metrics = {
    applied: () => undefined,
    watch: () => undefined,
    stop: () => undefined,
  } as unknown as ConsumerMetrics;
  const admin = { topicsReady: async () => undefined } as unknown as KafkaAdmin;
  const env = Object.assign(new PlatformEnv(), { SERVICE_NAME: 'test-app' });
  const bulkYield = new BulkYield(env);
  const consumers = new KafkaConsumers(
    discovery,
    new MetadataScanner(),
    new Reflector(),
    new ConsumerFactory({ consumer: newConsumer } as unknown as Kafka, admin, env),
    producer,
    metrics,
    env,
    bulkYield,
  );
  return { consumers, handlers, runs, sent, bulkYield, configs, connections };
}

function message(offset: number, value: unknown, headers: Record<string, string> = {}): KafkaMessage {
  return {
    offset: String(offset),
    key: Buffer.from('biz-1'),
    value: Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
    headers,
    timestamp: '0',
    attributes: 0,
    size: undefined,
  } as KafkaMessage;
}

/** An event of a type no contract names yet: consumers pass it to the handler, which may ignore it. */
const event = (n: number) => ({ eventId: `e-${n}`, type: 'test.counted.v1', payload: { n } });
const getOutlet = (outletId: string) => ({ type: 'getOutlet', businessId: 'biz-1', outletId });

function batch(topic: string, messages: KafkaMessage[]) {
  const resolved: string[] = [];
  const paused: number[] = [];
  const payload = {
    batch: {
      topic,
      partition: 2,
      messages,
      firstOffset: () => messages[0].offset,
      lastOffset: () => messages.at(-1)!.offset,
    },
    resolveOffset: (offset: string) => void resolved.push(offset),
    heartbeat: async () => undefined,
    pause: () => {
      paused.push(1);
      return () => undefined;
    },
    isRunning: () => true,
    isStale: () => false,
    // Offsets are committed by PeriodicCommits' timer: a commit in the loop could hold it.
    commitOffsetsIfNecessary: () => Promise.reject(new Error('the fetch loop committed offsets')),
  } as unknown as EachBatchPayload;
  return { payload, resolved, paused };
}

describe('KafkaConsumers', () => {
  beforeEach(() => {
    script = [];
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
  });

  afterEach(() => jest.useRealTimers());

  it('runs one consumer group per traffic class that has handlers', async () => {
    const { consumers, runs } = harness();
    await consumers.start();
    expect([...runs.keys()].sort()).toEqual([
      'card.charges.v1',
      'outlet.commands.v1',
      'partner.events.v1',
      'pos.outcomes.v1',
    ]);
    expect(new Set(runs.values()).size).toBe(3);
  });

  it('joins again with backoff after a failed start, saying why meanwhile, and consumes once joined', async () => {
    const { consumers, runs, connections } = harness({ refusedConnects: 1 });
    const joined = consumers.startUntilJoined();
    await jest.advanceTimersByTimeAsync(0);
    expect(consumers.joinProblem).toBe('the consumers did not join their groups: SASL authentication failed');
    // Everything the failed start made is let go before the next start.
    expect(connections.disconnected).toBeGreaterThan(0);
    await jest.advanceTimersByTimeAsync(999);
    expect(consumers.joinProblem).not.toBeNull();
    await jest.advanceTimersByTimeAsync(1);
    await joined;
    expect(consumers.joinProblem).toBeNull();
    expect([...runs.keys()].sort()).toEqual([
      'card.charges.v1',
      'outlet.commands.v1',
      'partner.events.v1',
      'pos.outcomes.v1',
    ]);
  });

  it("turns off kafkajs's commit after every batch in every group: PeriodicCommits commits instead", async () => {
    const { consumers, configs } = harness();
    await consumers.start();
    expect(configs.map((config) => config.autoCommit)).toEqual([false, false, false]);
  });

  it('tells BulkYield of every command batch, and gives it each bulk message (not other events) to rest after', async () => {
    const { consumers, runs, bulkYield } = harness();
    const seen = jest.spyOn(bulkYield, 'commandSeen');
    const after = jest.spyOn(bulkYield, 'after');
    await consumers.start();
    await runs.get(Topics.cardCharges.name)!(batch(Topics.cardCharges.name, [message(1, event(1))]).payload);
    expect(after).not.toHaveBeenCalled();
    await runs.get(Topics.outletCommands.name)!(
      batch(Topics.outletCommands.name, [message(1, getOutlet('o-1'))]).payload,
    );
    expect(seen).toHaveBeenCalledTimes(1);
    await runs.get(Topics.posOutcomes.name)!(
      batch(Topics.posOutcomes.name, [message(1, event(2)), message(2, event(3))]).payload,
    );
    expect(after).toHaveBeenCalledTimes(2);
  });

  it('lets a bulk batch handler heartbeat and give way in parts, and rests it no more after its batch', async () => {
    const { consumers, runs, bulkYield } = harness();
    const after = jest.spyOn(bulkYield, 'after');
    await consumers.start();
    const { payload } = batch(Topics.partnerEvents.name, [message(1, event(1)), message(2, event(2))]);
    const heartbeat = jest.spyOn(payload, 'heartbeat');
    await runs.get(Topics.partnerEvents.name)!(payload);
    expect(heartbeat).toHaveBeenCalledTimes(1);
    expect(after.mock.calls).toEqual([[5]]);
  });

  it('applies events in order and resolves each offset', async () => {
    const { consumers, handlers, runs } = harness();
    await consumers.start();
    const { payload, resolved } = batch(Topics.cardCharges.name, [message(7, event(1)), message(8, event(2))]);
    await runs.get(Topics.cardCharges.name)!(payload);
    expect(handlers.seen).toEqual([event(1), event(2)]);
    expect(resolved).toEqual(['7', '8']);
  });

  it('pauses the partition on an infrastructure failure, leaves the message for the retry, and parks nothing', async () => {
    const { consumers, runs, sent } = harness();
    await consumers.start();
    const connectionLost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    script = Array.from({ length: 10 }, () => async () => Promise.reject(connectionLost));
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const { payload, resolved, paused } = batch(Topics.cardCharges.name, [
        message(7, event(1)),
        message(8, event(2)),
      ]);
      await runs.get(Topics.cardCharges.name)!(payload);
      expect([resolved, paused.length]).toEqual([[], 1]);
    }
    const { payload, resolved } = batch(Topics.cardCharges.name, [message(7, event(1)), message(8, event(2))]);
    await runs.get(Topics.cardCharges.name)!(payload);
    expect(resolved).toEqual(['7', '8']);
    expect(sent).toEqual([]);
  });

  it('waits for what will come (RetryLaterError) however long it takes', async () => {
    const { consumers, runs, sent } = harness();
    await consumers.start();
    script = Array.from(
      { length: 6 },
      () => async () => Promise.reject(new RetryLaterError('business not onboarded yet')),
    );
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await runs.get(Topics.cardCharges.name)!(batch(Topics.cardCharges.name, [message(3, event(1))]).payload);
    }
    expect(sent).toEqual([]);
  });

  it('parks poison at once on <topic>.dlq with the reason, and moves on', async () => {
    const { consumers, runs, sent } = harness();
    await consumers.start();
    script = [async () => Promise.reject(new PoisonMessageError('sealed under another key'))];
    const { payload, resolved } = batch(Topics.cardCharges.name, [
      message(7, event(7), { 'event-id': 'e-7' }),
      message(8, 'not json'),
    ]);
    await runs.get(Topics.cardCharges.name)!(payload);
    expect(resolved).toEqual(['7', '8']);
    expect(
      sent.map(({ topic, message: parked }) => [topic, parked.headers?.['dlq-reason'], parked.headers?.['event-id']]),
    ).toEqual([
      ['card.charges.v1.dlq', 'sealed under another key', 'e-7'],
      ['card.charges.v1.dlq', 'the message is not JSON', undefined],
    ]);
  });

  it('retries a message that fails for its own reasons a few times, then parks it', async () => {
    const { consumers, runs, sent } = harness();
    await consumers.start();
    script = Array.from({ length: 4 }, (_, i) => async () => Promise.reject(new Error(`bug ${i + 1}`)));
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const { payload, resolved } = batch(Topics.cardCharges.name, [message(5, event(1))]);
      await runs.get(Topics.cardCharges.name)!(payload);
      expect(resolved).toEqual(attempt < 4 ? [] : ['5']);
    }
    expect(sent.map(({ message: parked }) => parked.headers?.['dlq-reason'])).toEqual(['bug 4']);
  });

  it('answers each request to the partition and correlation id it names, a domain error as data', async () => {
    const { consumers, runs, sent } = harness();
    await consumers.start();
    const headers = (id: string) => ({
      'reply-topic': 'command.replies.v1',
      'reply-partition': '4',
      'correlation-id': id,
    });
    const { payload, resolved } = batch(Topics.outletCommands.name, [
      message(1, getOutlet('o-2'), headers('a.1')),
      message(2, getOutlet('o-5'), headers('a.2')),
      message(3, getOutlet('missing'), headers('a.3')),
    ]);
    await runs.get(Topics.outletCommands.name)!(payload);
    expect(resolved).toEqual(['3']);
    expect(
      sent.map(({ topic, message: reply }) => [
        topic,
        reply.partition,
        reply.headers?.['correlation-id'],
        JSON.parse(String(reply.value)),
      ]),
    ).toEqual([
      ['command.replies.v1', 4, 'a.1', { ok: true, data: 'outlet o-2' }],
      ['command.replies.v1', 4, 'a.2', { ok: true, data: 'outlet o-5' }],
      [
        'command.replies.v1',
        4,
        'a.3',
        { ok: false, error: { code: 'OUTLET_NOT_FOUND', message: 'Outlet missing not found', status: 404 } },
      ],
    ]);
  });

  it('leaves the reply to whoever a handler handed the request on to, unless the handler then failed', async () => {
    const { consumers, handlers, runs, sent } = harness();
    await consumers.start();
    const deadline = String(Date.now() + 5000);
    const address = (id: string) => ({
      'reply-topic': 'command.replies.v1',
      'reply-partition': '3',
      'correlation-id': id,
      'reply-deadline': deadline,
    });
    const headers = (id: string) => ({ ...address(id), 'event-id': 'not part of the address' });
    const { payload, resolved } = batch(Topics.outletCommands.name, [
      message(1, getOutlet('handed-on'), headers('f.1')),
      message(2, getOutlet('handed-on-then-failed'), headers('f.2')),
      message(3, getOutlet('o-1'), headers('f.3')),
    ]);
    await runs.get(Topics.outletCommands.name)!(payload);
    expect(handlers.handedOn).toEqual([address('f.1'), address('f.2')]);
    expect(sent.map(({ message: reply }) => reply.headers?.['correlation-id'])).toEqual(['f.2', 'f.3']);
    expect(resolved).toEqual(['3']);
  });

  it('drops a request its requester stopped waiting for: not handled, not answered, its offset resolved', async () => {
    const { consumers, handlers, runs, sent } = harness();
    await consumers.start();
    const headers = (id: string, deadline: number) => ({
      'reply-topic': 'command.replies.v1',
      'reply-partition': '0',
      'correlation-id': id,
      'reply-deadline': String(deadline),
    });
    const { payload, resolved } = batch(Topics.outletCommands.name, [
      message(7, getOutlet('o-late'), headers('c.1', Date.now() - 1)),
      message(8, getOutlet('o-waited-for'), headers('c.2', Date.now() + 5000)),
    ]);
    await runs.get(Topics.outletCommands.name)!(payload);
    expect(handlers.seen).toEqual([getOutlet('o-waited-for')]);
    expect(sent.map(({ message: reply }) => reply.headers?.['correlation-id'])).toEqual(['c.2']);
    expect(resolved).toEqual(['8']);
  });

  it('parks an event that breaks its contract before the handler sees it, naming fields and never values', async () => {
    const { consumers, handlers, runs, sent } = harness();
    await consumers.start();
    const breaking = {
      eventId: 'e-9',
      type: 'card.charge.succeeded.v1',
      payload: { chargeId: 'ch-1', businessId: 'biz-1', checkoutReference: 'CHK-1', amount: '-5', maskedPan: 7 },
    };
    const { payload, resolved } = batch(Topics.cardCharges.name, [message(9, breaking), message(10, { n: 1 })]);
    await runs.get(Topics.cardCharges.name)!(payload);
    expect(handlers.seen).toEqual([]);
    expect(resolved).toEqual(['9', '10']);
    const reasons = sent.map(({ message: parked }) => parked.headers?.['dlq-reason']);
    expect(reasons).toEqual([
      'card.charge.succeeded.v1 breaks its contract: amount: isKoboAmount; maskedPan: isString; succeededAt: isIso8601',
      'not an event envelope: eventId, type and payload are required',
    ]);
    expect(reasons.join()).not.toContain('-5');
  });

  it('answers a command that breaks its contract with an error at once, and parks it', async () => {
    const { consumers, runs, sent } = harness();
    await consumers.start();
    const headers = { 'reply-topic': 'command.replies.v1', 'reply-partition': '1', 'correlation-id': 'b.1' };
    const { payload } = batch(Topics.outletCommands.name, [
      message(3, { type: 'getOutlet', outletId: 'o-1' }, headers),
      message(4, { type: 'dropTables', businessId: 'biz-1' }, headers),
    ]);
    await runs.get(Topics.outletCommands.name)!(payload);
    const parked = sent.filter(({ topic }) => topic === 'outlet.commands.v1.dlq');
    expect(parked.map(({ message: m }) => m.headers?.['dlq-reason'])).toEqual([
      'getOutlet breaks its contract: businessId: isNotEmpty, isString',
      'unknown command type on outlet.commands.v1',
    ]);
    const replies = sent.filter(({ topic }) => topic === 'command.replies.v1');
    expect(replies.map(({ message: m }) => JSON.parse(String(m.value)).error?.code)).toEqual([
      'INTERNAL_ERROR',
      'INTERNAL_ERROR',
    ]);
  });
});
