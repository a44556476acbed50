import { randomUUID } from 'node:crypto';

import { EventOf, EventPayloads } from '@payments/contracts';

/**
 * An event as a producer envelopes it: a fresh id, now, and the business it concerns (by
 * default the one its payload names).
 */
export function testEvent<Type extends keyof EventPayloads>(
  type: Type,
  payload: EventPayloads[Type],
  businessId = businessOf(payload),
): EventOf<Type> {
  return {
    eventId: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    ...(businessId ? { businessId } : {}),
    payload,
  };
}

function businessOf(payload: object): string | undefined {
  const { businessId } = payload as { businessId?: unknown };
  return typeof businessId === 'string' ? businessId : undefined;
}

/** Where a handled message came from, as the consumer hands it over: no headers unless given. */
export function testMessageContext(topic: string, headers: Record<string, string> = {}) {
  return { topic, partition: 0, offset: '0', key: null, headers };
}
