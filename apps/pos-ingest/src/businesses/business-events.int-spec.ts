import { randomUUID } from 'node:crypto';

import { OutletOpenedV1 } from '@payments/contracts';
import { ulid } from 'ulid';

import { TerminalsRepository } from '../terminals/terminals.repository';
import { PosIngestFixture } from '../testing/pos-ingest.fixture';
import { BusinessEventsConsumer } from './business-events.consumer';

describe('business events in pos-ingest', () => {
  const fixture = new PosIngestFixture();
  let consumer: BusinessEventsConsumer;
  let terminals: TerminalsRepository;

  beforeAll(async () => {
    await fixture.start();
    consumer = fixture.app.get(BusinessEventsConsumer);
    terminals = fixture.app.get(TerminalsRepository);
  });

  afterAll(() => fixture.close());

  const outletOpened = (businessId: string, outletId: string) => ({
    eventId: randomUUID(),
    type: OutletOpenedV1,
    occurredAt: new Date().toISOString(),
    businessId,
    payload: { businessId, outletId },
  });

  it('knows an outlet once outlet-service announced it, for its own business only', async () => {
    const [businessId, otherBusinessId, outletId] = [ulid(), ulid(), ulid()];
    expect(await terminals.outletKnown(businessId, outletId)).toBe(false);

    await consumer.handle(outletOpened(businessId, outletId));

    expect(await terminals.outletKnown(businessId, outletId)).toBe(true);
    expect(await terminals.outletKnown(otherBusinessId, outletId)).toBe(false);
  });

  it('keeps an outlet announced twice once', async () => {
    const [businessId, outletId] = [ulid(), ulid()];
    await consumer.handle(outletOpened(businessId, outletId));
    await consumer.handle(outletOpened(businessId, outletId));
    const rows = (await fixture.dataSource.query(
      `SELECT count(*)::int AS count FROM pos_ingest.outlets WHERE business_id = $1`,
      [businessId],
    )) as { count: number }[];
    expect(rows).toEqual([{ count: 1 }]);
  });
});
