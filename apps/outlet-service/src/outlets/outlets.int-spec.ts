import { OutletOpenedV1, OutletResponse, Topics } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';
import { checkContract } from '@payments/platform-kafka';

import { OutletsAnnounced1763769600040 } from '../database/migrations/1763769600040-outlets-announced';
import { domainFailure, OutboxRow, OutletServiceFixture } from '../testing/outlet-service.fixture';
import { OutletsService } from './outlets.service';

describe('outlets', () => {
  let fixture: OutletServiceFixture;
  let outlets: OutletsService;
  let businessId: string;

  beforeAll(async () => {
    fixture = await OutletServiceFixture.start();
    outlets = fixture.get(OutletsService);
    businessId = await fixture.business();
  });

  afterAll(() => fixture.close());

  it('creates an outlet with a collection wallet and a deposit wallet, both on 10-digit accounts', async () => {
    const outlet = await fixture.outlet(businessId, {
      accountName: 'Ikeja Branch',
      externalReference: 'ikeja-1',
      address: '1 Allen Ave',
    });
    expect(outlet.outletId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(outlet).toMatchObject({ accountName: 'Ikeja Branch', externalReference: 'ikeja-1', address: '1 Allen Ave' });
    expect(outlet.collectionWallet).toMatchObject({
      type: 'collection',
      accountName: 'Ikeja Branch',
      currency: 'NGN',
      ledgerBalance: '0',
      availableBalance: '0',
      status: 'active',
    });
    expect(outlet.depositWallet).toMatchObject({
      type: 'deposit',
      accountName: 'Ikeja Branch (deposit)',
      currency: 'NGN',
    });
    expect(outlet.collectionWallet.accountNumber).toMatch(/^\d{10}$/);
    expect(outlet.depositWallet.accountNumber).toMatch(/^\d{10}$/);
    expect(outlet.collectionWallet.accountNumber).not.toBe(outlet.depositWallet.accountNumber);
  });

  it('stores a 200-character name in any script, and its 210-character deposit name', async () => {
    const name = 'é'.repeat(199) + '🙂';
    const outlet = await fixture.outlet(businessId, { accountName: name });
    expect(outlet.accountName).toBe(name);
    expect(outlet.depositWallet.accountName).toBe(`${name} (deposit)`);
  });

  it('queues outlet.created with eventData equal to the response, in the same transaction', async () => {
    const other = await fixture.business();
    const outlet = await fixture.outlet(other, { accountName: 'Event Outlet' });
    const events = await fixture.partnerEvents(other);
    expect(events).toEqual([{ event: 'outlet.created', eventData: JSON.parse(JSON.stringify(outlet)) }]);
  });

  /** Each row is a whole outlet.opened.v1 event that keeps its contract, under the same id everywhere. */
  const expectOutletOpened = (rows: OutboxRow[], businessId: string, outletIds: string[]) => {
    expect(rows.map((row) => row.payload.payload)).toEqual(outletIds.map((outletId) => ({ businessId, outletId })));
    for (const { id, payload, headers } of rows) {
      expect(payload).toMatchObject({ eventId: id, type: OutletOpenedV1, businessId });
      expect(new Date(payload.occurredAt).getTime()).not.toBeNaN();
      expect(headers).toEqual({ 'event-id': id, 'event-type': OutletOpenedV1 });
      expect(() => checkContract(Topics.businessEvents.name, 'event', payload)).not.toThrow();
    }
  };

  it('tells pos-ingest of the outlet with outlet.opened.v1 on business events, keyed by its business', async () => {
    const other = await fixture.business();
    const outlet = await fixture.outlet(other, { accountName: 'Announced Outlet' });
    expectOutletOpened(await fixture.outboxRows(Topics.businessEvents.name, other), other, [outlet.outletId]);
  });

  it('announces, when migrated, each outlet created before outlet.opened.v1 existed', async () => {
    const other = await fixture.business();
    const outlets = [
      await fixture.outlet(other, { accountName: 'Older Outlet A' }),
      await fixture.outlet(other, { accountName: 'Older Outlet B' }),
    ];
    // In a transaction rolled back at the end: the migration announces every outlet of the database.
    const runner = fixture.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`DELETE FROM outlets.outbox WHERE topic = $1 AND message_key = $2`, [
        Topics.businessEvents.name,
        other,
      ]);
      await new OutletsAnnounced1763769600040().up(runner);
      const rows = await fixture.outboxRows(Topics.businessEvents.name, other, runner);
      expectOutletOpened(
        rows,
        other,
        outlets.map((outlet) => outlet.outletId),
      );
      expect(new Set(rows.map((row) => row.id)).size).toBe(2);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('gives 50 concurrent creates with one externalReference exactly one outlet', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        fixture.outlet(businessId, { accountName: `Race ${i}`, externalReference: 'race-ref' }),
      ),
    );
    const created = results.filter((result) => result.status === 'fulfilled');
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as DomainError] : []));
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(49);
    expect(new Set(refused.map((error) => `${error.status} ${error.code}`))).toEqual(
      new Set(['422 EXTERNAL_REFERENCE_DUPLICATE']),
    );
    const found = await outlets.search(businessId, { search: 'race-ref', page: 1, limit: 100 });
    expect(found.meta.total).toBe(1);
  });

  it('lets another business reuse an externalReference', async () => {
    const other = await fixture.business();
    await expect(fixture.outlet(other, { externalReference: 'ikeja-1' })).resolves.toBeDefined();
  });

  it('answers an unknown id and another business’s outlet with the same 404', async () => {
    const other = await fixture.business();
    const theirs = await fixture.outlet(other, { accountName: 'Theirs' });
    const unknown = await domainFailure(outlets.get(businessId, '01ARZ3NDEKTSV4RRFFQ69G5FAV'));
    const foreign = await domainFailure(outlets.get(businessId, theirs.outletId));
    expect([unknown.status, unknown.code]).toEqual([404, 'OUTLET_NOT_FOUND']);
    expect([foreign.status, foreign.code]).toEqual([404, 'OUTLET_NOT_FOUND']);
    expect(unknown.message).toBe('Outlet 01ARZ3NDEKTSV4RRFFQ69G5FAV not found');
    expect(foreign.message).toBe(`Outlet ${theirs.outletId} not found`);
  });

  it('refuses a business with no agent assignment with INVALID_TENANT', async () => {
    const error = await domainFailure(fixture.outlet('01UNKNOWNBUSINESS000000000'));
    expect([error.status, error.code]).toEqual([422, 'INVALID_TENANT']);
  });

  it('shows live balances on GET', async () => {
    const outlet = await fixture.outlet(businessId, { accountName: 'Balance Outlet' });
    await fixture.fund(outlet.collectionWallet.accountNumber, 12_345n);
    const fetched = await outlets.get(businessId, outlet.outletId);
    expect(fetched.collectionWallet).toMatchObject({ ledgerBalance: '12345', availableBalance: '12345' });
  });

  describe('search', () => {
    let searcher: string;
    const made: OutletResponse[] = [];

    beforeAll(async () => {
      searcher = await fixture.business();
      for (const [accountName, externalReference] of [
        ['Lekki Phase 1', 'shop-001'],
        ['lekki Phase 2', 'shop-002'],
        ['Yaba 100%_off', 'LEKKI'],
        ['Surulere', null],
      ] as const) {
        made.push(await fixture.outlet(searcher, { accountName, externalReference }));
      }
      const stranger = await fixture.business();
      await fixture.outlet(stranger, { accountName: 'Lekki Stranger', externalReference: 'shop-001' });
    });

    const names = (page: { items: OutletResponse[] }) => page.items.map((item) => item.accountName).sort();

    it('matches an externalReference exactly', async () => {
      expect(names(await outlets.search(searcher, { search: 'shop-001', page: 1, limit: 20 }))).toEqual([
        'Lekki Phase 1',
      ]);
      expect((await outlets.search(searcher, { search: 'shop-00', page: 1, limit: 20 })).items).toEqual([]);
    });

    it('matches the start of accountName in any case, and an equal externalReference', async () => {
      expect(names(await outlets.search(searcher, { search: 'LEKKI', page: 1, limit: 20 }))).toEqual([
        'Lekki Phase 1',
        'Yaba 100%_off',
        'lekki Phase 2',
      ]);
    });

    it('treats % and _ as plain characters', async () => {
      expect(names(await outlets.search(searcher, { search: 'yaba 100%_', page: 1, limit: 20 }))).toEqual([
        'Yaba 100%_off',
      ]);
      expect((await outlets.search(searcher, { search: '%', page: 1, limit: 20 })).items).toEqual([]);
    });

    it('paginates with the total of all matches, and never shows another business', async () => {
      const first = await outlets.search(searcher, { page: 1, limit: 3 });
      const second = await outlets.search(searcher, { page: 2, limit: 3 });
      const beyond = await outlets.search(searcher, { page: 5, limit: 3 });
      expect(first.meta).toEqual({ page: 1, limit: 3, total: 4 });
      expect(first.items).toHaveLength(3);
      expect(second.items).toHaveLength(1);
      expect(beyond).toEqual({ items: [], meta: { page: 5, limit: 3, total: 4 } });
      const all = [...first.items, ...second.items].map((item) => item.outletId).sort();
      expect(all).toEqual(made.map((outlet) => outlet.outletId).sort());
    });
  });
});
