import { OutletOpenedV1 } from '@payments/contracts';
import { testEvent } from '@payments/testing';
import { ulid } from 'ulid';

import { TerminalsRepository } from '../terminals/terminals.repository';
import { PosIngestFixture } from '../testing/pos-ingest.fixture';
import { BusinessEventsConsumer } from './business-events.consumer';

describe('business events in pos-ingest', () => {
  const fixture = new PosIngestFixture();
  beforeAll(() => fixture.start());
  afterAll(() => fixture.close());

  const handle = (event: Parameters<BusinessEventsConsumer['handle']>[0]) =>
    fixture.app.get(BusinessEventsConsumer).handle(event);
  const outletKnown = (businessId: string, outletId: string) =>
    fixture.app.get(TerminalsRepository).outletKnown(businessId, outletId);

  const outletOpened = (businessId: string, outletId: string) => testEvent(OutletOpenedV1, { businessId, outletId });

  it('knows an outlet once outlet-service announced it, for its own business only', async () => {
    const [businessId, otherBusinessId, outletId] = [ulid(), ulid(), ulid()];
    expect(await outletKnown(businessId, outletId)).toBe(false);

    await handle(outletOpened(businessId, outletId));

    expect(await outletKnown(businessId, outletId)).toBe(true);
    expect(await outletKnown(otherBusinessId, outletId)).toBe(false);
  });

  it('keeps an outlet announced twice once', async () => {
    const [businessId, outletId] = [ulid(), ulid()];
    await handle(outletOpened(businessId, outletId));
    await handle(outletOpened(businessId, outletId));
    const rows = (await fixture.dataSource.query(
      `SELECT count(*)::int AS count FROM pos_ingest.outlets WHERE business_id = $1`,
      [businessId],
    )) as { count: number }[];
    expect(rows).toEqual([{ count: 1 }]);
  });

  it('finds the terminals registered to an outlet their business does not have, for one business or all', async () => {
    const terminals = fixture.app.get(TerminalsRepository);
    const [mine, theirs] = [await fixture.terminal(), await fixture.terminal()];
    const outletId = ulid();
    await handle(outletOpened(mine.businessId, outletId));
    const [onKnown, onMistyped, withoutOutlet] = [
      mine.serialNumber,
      await fixture.anotherTerminal(mine.businessId),
      await fixture.anotherTerminal(mine.businessId),
    ];
    await terminals.register(mine.businessId, onKnown, outletId);
    await terminals.register(mine.businessId, onMistyped, `${outletId}X`);
    // Another business's outlet is no outlet of this one.
    await terminals.register(theirs.businessId, theirs.serialNumber, outletId);

    expect(await terminals.withUnknownOutlets(mine.businessId)).toEqual([
      { serialNumber: onMistyped, businessId: mine.businessId, outletId: `${outletId}X` },
    ]);
    const everyBusiness = (await terminals.withUnknownOutlets(null)).map((terminal) => terminal.serialNumber);
    expect(everyBusiness).toEqual(expect.arrayContaining([onMistyped, theirs.serialNumber]));
    expect(everyBusiness).not.toContain(onKnown);
    expect(everyBusiness).not.toContain(withoutOutlet);
  });
});
