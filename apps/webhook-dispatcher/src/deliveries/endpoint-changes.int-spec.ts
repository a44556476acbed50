import { WebhookEndpointDetailResponse } from '@payments/contracts';
import { eventually } from '@payments/testing';

import { DispatcherFixture } from '../testing/dispatcher.fixture';
import { Receiver } from '../testing/receiver';
import { DeliveryWorker } from './delivery-worker';

jest.setTimeout(60_000);

/** How long the old receiver holds the first attempt: the others wait, claimed, behind it. */
const slowAnswerMs = 1500;

describe('a change to an endpoint while its deliveries are claimed', () => {
  const first = new DispatcherFixture();
  let second: DispatcherFixture;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // One slot per endpoint: the deliveries claimed behind a slow attempt wait in the instance's memory.
    await first.start({ WEBHOOK_PER_ENDPOINT_CONCURRENCY: '1', WEBHOOK_TIMEOUT_MS: '5000' });
    second = await first.replica();
  });

  afterAll(async () => {
    await second?.close();
    await first.close();
    await Promise.all(receivers.map((receiver) => receiver.stop()));
  });

  async function receiver(firstAnswerDelayMs = 0): Promise<Receiver> {
    const started = await new Receiver((_request, count) => ({
      status: 200,
      delayMs: count === 1 ? firstAnswerDelayMs : 0,
    })).start();
    receivers.push(started);
    return started;
  }

  /** Deliveries of a business's default endpoint, or of one it added. */
  type Scope = { column: 'business_id' | 'endpoint_id'; id: string };

  /** Four events whose first attempt the slow receiver holds, the other three claimed behind it. */
  async function backlogHeldBy(slow: Receiver, businessId: string, scope: Scope): Promise<string[]> {
    const eventIds: string[] = [];
    for (let i = 0; i < 4; i += 1) eventIds.push(await first.event(businessId, { i }));
    await eventually(async () => (slow.received.length === 1 ? true : undefined), 10_000);
    await eventually(async () => ((await leasedBy(scope)).length === 4 ? true : undefined), 10_000);
    return eventIds;
  }

  async function leasedBy({ column, id }: Scope): Promise<string[]> {
    const rows: { leased_by: string }[] = await first.dataSource.query(
      `SELECT leased_by FROM webhooks.deliveries WHERE ${column} = $1 AND status = 'pending' AND lease_until > now()`,
      [id],
    );
    return rows.map((row) => row.leased_by);
  }

  /** The instance that did not claim the deliveries: its change must reach the one that did, whose cache it cannot clear. */
  async function otherInstance(scope: Scope): Promise<DispatcherFixture> {
    const [claimant] = await leasedBy(scope);
    return first.get(DeliveryWorker)['claimant'] === claimant ? second : first;
  }

  it('sends nothing to the old URL once the URL change has answered; the claimed deliveries go to the new one', async () => {
    const [old, moved] = [await receiver(slowAnswerMs), await receiver()];
    const business = await first.business(old.url);
    const scope = { column: 'business_id', id: business.businessId } as const;
    const eventIds = await backlogHeldBy(old, business.businessId, scope);

    const other = await otherInstance(scope);
    const reply = await other.command({ type: 'setEndpoint', businessId: business.businessId, url: moved.url });
    const answeredAt = Date.now();
    expect(reply).toMatchObject({ ok: true, data: { url: moved.url } });

    await eventually(async () => (moved.eventIds().size === 3 ? true : undefined), 15_000);
    expect(old.received.filter((request) => request.at >= answeredAt)).toEqual([]);
    expect(new Set([...old.eventIds(), ...moved.eventIds()])).toEqual(new Set(eventIds));
  });

  it('sends nothing to an added endpoint once its deletion has answered', async () => {
    const [defaultReceiver, added] = [await receiver(), await receiver(slowAnswerMs)];
    const business = await first.business(defaultReceiver.url);
    const created = await first.command<WebhookEndpointDetailResponse>({
      type: 'createEndpoint',
      businessId: business.businessId,
      endpoint: { url: added.url, events: ['*'] },
    });
    if (!created.ok) throw new Error(created.error.message);
    const endpointId = created.data.endpointId;
    const scope = { column: 'endpoint_id', id: endpointId } as const;
    const eventIds = await backlogHeldBy(added, business.businessId, scope);

    const other = await otherInstance(scope);
    const reply = await other.command({ type: 'deleteEndpoint', businessId: business.businessId, endpointId });
    const answeredAt = Date.now();
    expect(reply).toMatchObject({ ok: true });

    const statuses = await eventually(async () => {
      const rows: { status: string }[] = await first.dataSource.query(
        `SELECT status FROM webhooks.deliveries WHERE endpoint_id = $1 ORDER BY created_at`,
        [endpointId],
      );
      return rows.every((row) => row.status !== 'pending') ? rows.map((row) => row.status) : undefined;
    }, 15_000);
    expect(statuses.sort()).toEqual(['failed', 'failed', 'failed', 'succeeded']);
    expect(added.received.filter((request) => request.at >= answeredAt)).toEqual([]);
    expect(defaultReceiver.eventIds()).toEqual(new Set(eventIds));
  });
});
