import { ExecutionContext } from '@nestjs/common';
import { KafkaContext } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { defer, firstValueFrom } from 'rxjs';
import { DeadLetterInterceptor, PoisonMessageError } from './dead-letter.interceptor';

function kafkaContext(): ExecutionContext {
  // As Nest hands it over: already parsed, the value an object, the key and headers strings.
  const message = { key: 'biz-1', value: { eventId: 'e-1' }, headers: { 'event-id': 'e-1' }, offset: '41' };
  const context = new KafkaContext([message as never, 3, 'partner.events.v1', undefined as never, undefined as never, undefined as never]);
  return { getType: () => 'rpc', switchToRpc: () => ({ getContext: () => context }) } as unknown as ExecutionContext;
}

function fakeKafka() {
  const sent: { topic: string; messages: { key: unknown; value: unknown; headers: Record<string, unknown> }[] }[] = [];
  const producer = { connect: async () => undefined, disconnect: async () => undefined, send: async (record: (typeof sent)[number]) => void sent.push(record) };
  return { kafka: { producer: () => producer } as unknown as Kafka, sent };
}

describe('DeadLetterInterceptor', () => {
  it('retries a failing event handler, then parks the message on <topic>.dlq with the reason', async () => {
    const { kafka, sent } = fakeKafka();
    let calls = 0;
    const handler = { handle: () => defer(async () => Promise.reject(new Error(`attempt ${++calls} failed`))) };
    await firstValueFrom(new DeadLetterInterceptor(kafka).intercept(kafkaContext(), handler), { defaultValue: undefined });
    expect(calls).toBe(4);
    expect(sent).toHaveLength(1);
    expect(sent[0].topic).toBe('partner.events.v1.dlq');
    expect(sent[0].messages[0].value).toBe('{"eventId":"e-1"}');
    expect(sent[0].messages[0].key).toBe('biz-1');
    expect(sent[0].messages[0].headers).toMatchObject({ 'event-id': 'e-1', 'dlq-reason': 'attempt 4 failed', 'dlq-source-offset': '41' });
  });

  it('parks a poison message at once, without retrying', async () => {
    const { kafka, sent } = fakeKafka();
    let calls = 0;
    const handler = { handle: () => defer(async () => Promise.reject(new PoisonMessageError(`unreadable ${++calls}`))) };
    await firstValueFrom(new DeadLetterInterceptor(kafka).intercept(kafkaContext(), handler), { defaultValue: undefined });
    expect(calls).toBe(1);
    expect(sent[0].messages[0].headers).toMatchObject({ 'dlq-reason': 'unreadable 1' });
  });

  it('parks nothing when a retry succeeds', async () => {
    const { kafka, sent } = fakeKafka();
    let calls = 0;
    const handler = { handle: () => defer(async () => (++calls < 2 ? Promise.reject(new Error('transient')) : 'done')) };
    await expect(firstValueFrom(new DeadLetterInterceptor(kafka).intercept(kafkaContext(), handler))).resolves.toBe('done');
    expect(sent).toHaveLength(0);
  });

  it('leaves HTTP handlers alone', async () => {
    const { kafka } = fakeKafka();
    const http = { getType: () => 'http' } as unknown as ExecutionContext;
    const handler = { handle: () => defer(async () => Promise.reject(new Error('boom'))) };
    await expect(firstValueFrom(new DeadLetterInterceptor(kafka).intercept(http, handler))).rejects.toThrow('boom');
  });
});
