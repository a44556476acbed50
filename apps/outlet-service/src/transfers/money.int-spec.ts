import { randomUUID } from 'node:crypto';

import { BankTransferRequest, OutletResponse, PosTransactionDecidedV1Payload } from '@payments/contracts';
import { untilRequesterDeadline } from '@payments/platform-kafka';
import { eventually } from '@payments/testing';
import { ulid } from 'ulid';

import { CreditVirtualAccountUseCase } from '../funding/credit-virtual-account.usecase';
import { WalletsRepository } from '../money/wallets.repository';
import { PosCreditUseCase } from '../pos/pos-credit.usecase';
import { SweepSettingsService } from '../sweeps/sweep-settings.service';
import { Sweeper } from '../sweeps/sweeper';
import { domainFailure, OutletServiceFixture } from '../testing/outlet-service.fixture';
import { BankTransferUseCase } from './bank-transfer.usecase';
import { InternalTransferUseCase } from './internal-transfer.usecase';

jest.setTimeout(90_000);

describe('money movements', () => {
  let fixture: OutletServiceFixture;
  let transfers: InternalTransferUseCase;
  let businessId: string;
  let outlet: OutletResponse;

  beforeAll(async () => {
    fixture = await OutletServiceFixture.start();
    transfers = fixture.get(InternalTransferUseCase);
    businessId = await fixture.business();
    outlet = await fixture.outlet(businessId, { accountName: 'Money Outlet' });
    await fixture.fund(outlet.collectionWallet.accountNumber, 1_000_000n);
  });

  afterAll(() => fixture.close());

  const transfer = (
    reference: string,
    amount: string,
    from = outlet.collectionWallet.walletId,
    to = outlet.depositWallet.walletId,
  ) => transfers.execute(businessId, { reference, amount, sourceWalletId: from, destinationWalletId: to });

  describe('internal transfers', () => {
    it('moves money in one balanced entry and queues internalTransfer.successful', async () => {
      const before = await fixture.balances(outlet.depositWallet.walletId);
      const result = await transfer('tr-1', '2500');
      expect(result).toMatchObject({ reference: 'tr-1', transactionStatus: 'SUCCESS', amount: '2500' });
      expect((await fixture.balances(outlet.depositWallet.walletId)).ledger - before.ledger).toBe(2500n);
      const [{ sum }] = await fixture.dataSource.query(
        `SELECT sum(p.amount)::text AS sum FROM outlets.postings p JOIN outlets.journal_entries e ON e.id = p.entry_id
         WHERE e.business_id = $1 AND e.reference = 'tr-1'`,
        [businessId],
      );
      expect(sum).toBe('0');
      const events = await fixture.partnerEvents(businessId);
      expect(events.at(-1)).toMatchObject({
        event: 'internalTransfer.successful',
        eventData: { transactionReference: 'tr-1', amount: '2500', transactionStatus: 'SUCCESS' },
      });
    });

    it('names the outlets of both its wallets in internalTransfer.successful, null for a wallet of no outlet', async () => {
      const other = await fixture.outlet(businessId, { accountName: 'Other outlet' });
      const settlement = await fixture
        .get(WalletsRepository)
        .systemWallet(fixture.dataSource.manager, businessId, 'settlement');
      await transfer('tr-outlets', '300', outlet.collectionWallet.walletId, other.depositWallet.walletId);
      await transfer('tr-settle', '200', outlet.collectionWallet.walletId, settlement.id);
      const details = async (reference: string) =>
        (await fixture.partnerEvents(businessId)).find((event) => event.eventData.transactionReference === reference)
          ?.eventData.details;
      expect(await details('tr-outlets')).toMatchObject({
        sourceOutletId: outlet.outletId,
        destinationOutletId: other.outletId,
      });
      expect(await details('tr-settle')).toMatchObject({ sourceOutletId: outlet.outletId, destinationOutletId: null });
    });

    it('returns the first result for a repeated request and moves money once', async () => {
      const first = await transfer('tr-repeat', '100');
      const before = await fixture.balances(outlet.depositWallet.walletId);
      const again = await Promise.all([transfer('tr-repeat', '100'), transfer('tr-repeat', '100')]);
      expect(again).toEqual([first, first]);
      expect(await fixture.balances(outlet.depositWallet.walletId)).toEqual(before);
    });

    it('refuses the same reference with different content', async () => {
      await transfer('tr-conflict', '100');
      const error = await domainFailure(transfer('tr-conflict', '101'));
      expect([error.status, error.code]).toEqual([422, 'REFERENCE_CONFLICT']);
    });

    it('refuses more than the available balance and changes nothing', async () => {
      const before = await fixture.balances(outlet.collectionWallet.walletId);
      const error = await domainFailure(transfer('tr-too-much', (before.available + 1n).toString()));
      expect([error.status, error.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
      expect(await fixture.balances(outlet.collectionWallet.walletId)).toEqual(before);
      // A failed command leaves its reference free for a corrected retry.
      await expect(transfer('tr-too-much', '1')).resolves.toMatchObject({ transactionStatus: 'SUCCESS' });
    });

    it('books nothing once its requester has stopped waiting, and leaves the reference to the retry', async () => {
      const before = await fixture.balances(outlet.depositWallet.walletId);
      const late = await domainFailure(untilRequesterDeadline(Date.now() - 1, () => transfer('tr-late', '300')));
      expect([late.status, late.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(await fixture.balances(outlet.depositWallet.walletId)).toEqual(before);
      const retried = untilRequesterDeadline(Date.now() + 60_000, () => transfer('tr-late', '300'));
      await expect(retried).resolves.toMatchObject({ reference: 'tr-late', transactionStatus: 'SUCCESS' });
    });

    it('never reaches another business’s wallet', async () => {
      const stranger = await fixture.business();
      const theirs = await fixture.outlet(stranger);
      const error = await domainFailure(
        transfer('tr-foreign', '1', outlet.collectionWallet.walletId, theirs.collectionWallet.walletId),
      );
      expect([error.status, error.code]).toEqual([404, 'WALLET_NOT_FOUND']);
    });

    it('lets opposite transfers between two wallets run concurrently without deadlock', async () => {
      await fixture.fund(outlet.depositWallet.accountNumber, 100_000n);
      const a = outlet.collectionWallet.walletId;
      const b = outlet.depositWallet.walletId;
      const total = async () => (await fixture.balances(a)).ledger + (await fixture.balances(b)).ledger;
      const before = await total();
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => transfer(`tr-cross-${i}`, '7', i % 2 ? a : b, i % 2 ? b : a)),
      );
      expect(await total()).toBe(before);
    });

    it('never overdraws under concurrent spending', async () => {
      const spender = await fixture.outlet(businessId, { accountName: 'Spender' });
      await fixture.fund(spender.collectionWallet.accountNumber, 1000n);
      const results = await Promise.allSettled(
        Array.from({ length: 25 }, (_, i) =>
          transfer(`tr-spend-${i}`, '100', spender.collectionWallet.walletId, outlet.depositWallet.walletId),
        ),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
      expect(await fixture.balances(spender.collectionWallet.walletId)).toEqual({ ledger: 0n, available: 0n });
    });
  });

  describe('inbound funding', () => {
    it('credits the collection wallet and queues fundAccount.success with the common fields', async () => {
      const funded = await fixture.outlet(businessId, { accountName: 'Funded' });
      const result = await fixture.get(CreditVirtualAccountUseCase).execute(funded.collectionWallet.accountNumber, {
        amount: '5000',
        senderName: 'Chidi Okafor',
        senderAccountNumber: '0690000031',
        senderBankCode: '044',
        sessionId: 'session-abc',
      });
      expect(result).toMatchObject({ sessionId: 'session-abc', amount: '5000', transactionStatus: 'SUCCESS' });
      expect(await fixture.balances(funded.collectionWallet.walletId)).toEqual({ ledger: 5000n, available: 5000n });
      const event = (await fixture.partnerEvents(businessId)).at(-1)!;
      expect(event.event).toBe('fundAccount.success');
      expect(event.eventData).toMatchObject({
        sessionId: 'session-abc',
        amount: '5000',
        netAmount: '5000',
        fee: '0',
        commission: '0',
        transactionStatus: 'SUCCESS',
        transactionReference: result.transactionReference,
        transactionType: 'CREDIT',
        transactionAccount: funded.collectionWallet.accountNumber,
        sender: { name: 'Chidi Okafor', accountNumber: '0690000031', bankCode: '044' },
      });
      expect(Object.keys(event.eventData)).toEqual(
        expect.arrayContaining(['productType', 'customerReference', 'comment', 'createdAt']),
      );
    });

    it('credits a repeated sessionId once', async () => {
      const funded = await fixture.outlet(businessId, { accountName: 'Once' });
      const credit = () =>
        fixture
          .get(CreditVirtualAccountUseCase)
          .execute(funded.collectionWallet.accountNumber, { amount: '700', sessionId: 'dup-session' });
      const results = await Promise.all([credit(), credit(), credit()]);
      expect(new Set(results.map((result) => result.transactionReference)).size).toBe(1);
      expect(await fixture.balances(funded.collectionWallet.walletId)).toEqual({ ledger: 700n, available: 700n });
    });

    it('does not credit an unknown account or a live business’s account', async () => {
      const live = await fixture.business('live');
      const liveOutlet = await fixture.outlet(live);
      for (const accountNumber of ['0000000001', liveOutlet.collectionWallet.accountNumber]) {
        const error = await domainFailure(
          fixture.get(CreditVirtualAccountUseCase).execute(accountNumber, { amount: '1' }),
        );
        expect([error.status, error.code]).toEqual([404, 'VIRTUAL_ACCOUNT_NOT_FOUND']);
      }
    });
  });

  describe('payouts', () => {
    const settleAll = () => fixture.settleRail('payouts', businessId);
    // A payout of 4000 kobo to the sandbox's paying account, unless the test says otherwise.
    const payoutRequest = (
      sourceWalletId: string,
      overrides: Partial<BankTransferRequest> = {},
    ): BankTransferRequest => ({
      reference: `po-${randomUUID()}`,
      amount: '4000',
      sourceWalletId,
      bankCode: '058',
      accountNumber: '0690000031',
      accountName: 'Bola Ade',
      ...overrides,
    });

    it('holds the amount at once, then posts it when the rail settles', async () => {
      const payer = await fixture.outlet(businessId, { accountName: 'Payer' });
      await fixture.fund(payer.depositWallet.accountNumber, 10_000n);
      const payout = await fixture
        .get(BankTransferUseCase)
        .execute(businessId, payoutRequest(payer.depositWallet.walletId));
      expect(payout.transactionStatus).toBe('PROCESSING');
      expect(await fixture.balances(payer.depositWallet.walletId)).toEqual({ ledger: 10_000n, available: 6000n });
      await settleAll();
      expect(await fixture.balances(payer.depositWallet.walletId)).toEqual({ ledger: 6000n, available: 6000n });
      const event = (await fixture.partnerEvents(businessId)).find(
        (candidate) => candidate.eventData.transactionReference === payout.reference,
      )!;
      expect(event).toMatchObject({
        event: 'bankTransfer.success',
        eventData: {
          transactionType: 'DEBIT',
          amount: '4000',
          beneficiary: { accountNumber: '0690000031', bankCode: '058' },
        },
      });
    });

    it("names the paying deposit wallet's outlet in bankTransfer.success and bankTransfer.failed", async () => {
      const payer = await fixture.outlet(businessId, { accountName: 'Named payer' });
      await fixture.fund(payer.depositWallet.accountNumber, 10_000n);
      const payouts = fixture.get(BankTransferUseCase);
      const paid = await payouts.execute(businessId, payoutRequest(payer.depositWallet.walletId));
      const rejected = await payouts.execute(
        businessId,
        payoutRequest(payer.depositWallet.walletId, { accountNumber: '0000000000', accountName: 'Nobody' }),
      );
      await settleAll();
      const events = await fixture.partnerEvents(businessId);
      for (const { reference } of [paid, rejected]) {
        const event = events.find((candidate) => candidate.eventData.transactionReference === reference);
        expect(event?.eventData.details).toMatchObject({
          walletId: payer.depositWallet.walletId,
          outletId: payer.outletId,
        });
      }
    });

    it('releases the hold when the rail fails the transfer', async () => {
      const payer = await fixture.outlet(businessId, { accountName: 'Failing payer' });
      await fixture.fund(payer.depositWallet.accountNumber, 10_000n);
      const { reference } = await fixture
        .get(BankTransferUseCase)
        .execute(
          businessId,
          payoutRequest(payer.depositWallet.walletId, { accountNumber: '0000000000', accountName: 'Nobody' }),
        );
      await settleAll();
      const event = (await fixture.partnerEvents(businessId)).find(
        (candidate) => candidate.eventData.transactionReference === reference,
      );
      expect(event).toMatchObject({
        event: 'bankTransfer.failed',
        eventData: { transactionStatus: 'FAILED', transactionType: 'DEBIT' },
      });
      expect(await fixture.balances(payer.depositWallet.walletId)).toEqual({ ledger: 10_000n, available: 10_000n });
    });

    it('pays out only from a deposit wallet, and only what is available', async () => {
      const payer = await fixture.outlet(businessId, { accountName: 'Strict payer' });
      await fixture.fund(payer.depositWallet.accountNumber, 100n);
      const pay = (sourceWalletId: string, amount: string) =>
        fixture.get(BankTransferUseCase).execute(businessId, payoutRequest(sourceWalletId, { amount }));
      expect((await domainFailure(pay(payer.collectionWallet.walletId, '1'))).code).toBe('INVALID_TRANSFER');
      expect((await domainFailure(pay(payer.depositWallet.walletId, '101'))).code).toBe('INSUFFICIENT_FUNDS');
    });

    it('holds nothing once its requester has stopped waiting', async () => {
      const payer = await fixture.outlet(businessId, { accountName: 'Late payer' });
      await fixture.fund(payer.depositWallet.accountNumber, 5000n);
      const request = payoutRequest(payer.depositWallet.walletId);
      const pay = () => fixture.get(BankTransferUseCase).execute(businessId, request);
      const late = await domainFailure(untilRequesterDeadline(Date.now() - 1, pay));
      expect([late.status, late.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(await fixture.balances(payer.depositWallet.walletId)).toEqual({ ledger: 5000n, available: 5000n });
      await expect(untilRequesterDeadline(Date.now() + 60_000, pay)).resolves.toMatchObject({
        transactionStatus: 'PROCESSING',
      });
    });
  });

  describe('sweeps', () => {
    it('moves collection balances over the threshold to the settlement wallet, once across two replicas', async () => {
      const sweeping = await fixture.business();
      const [big, small] = [
        await fixture.outlet(sweeping, { accountName: 'Big' }),
        await fixture.outlet(sweeping, { accountName: 'Small' }),
      ];
      await fixture.fund(big.collectionWallet.accountNumber, 50_000n);
      await fixture.fund(small.collectionWallet.accountNumber, 999n);
      const sweeper = fixture.get(Sweeper);
      // Two replicas' sweepers racing for the same due business, before the background loop does.
      await fixture
        .get(SweepSettingsService)
        .update(sweeping, { enabled: true, threshold: '1000', intervalSeconds: 3600 });
      await Promise.all([sweeper.sweepDue(), sweeper.sweepDue(), sweeper.sweepDue()]);
      const settlement = (
        await fixture.get(WalletsRepository).ofType(fixture.dataSource.manager, sweeping, 'settlement')
      )[0];
      await eventually(async () => ((await fixture.balances(settlement.id)).ledger === 50_000n ? true : undefined));
      const sweeps = (await fixture.partnerEvents(sweeping)).filter(
        (event) => event.event === 'walletSweptIntra.successful',
      );
      expect(sweeps).toHaveLength(1);
      expect(sweeps[0].eventData).toMatchObject({
        amount: '50000',
        transactionType: 'DEBIT',
        sweepReference: expect.any(String),
      });
      expect(await fixture.balances(big.collectionWallet.walletId)).toEqual({ ledger: 0n, available: 0n });
      expect(await fixture.balances(small.collectionWallet.walletId)).toEqual({ ledger: 999n, available: 999n });
    });

    it('is off by default', async () => {
      const idle = await fixture.business();
      const outletOfIdle = await fixture.outlet(idle);
      await fixture.fund(outletOfIdle.collectionWallet.accountNumber, 50_000n);
      await fixture.get(Sweeper).sweepDue();
      expect(await fixture.balances(outletOfIdle.collectionWallet.walletId)).toEqual({
        ledger: 50_000n,
        available: 50_000n,
      });
    });
  });

  describe('POS credits', () => {
    const decision = (businessId: string, overrides: Partial<PosTransactionDecidedV1Payload> = {}) => ({
      businessId,
      reference: `POS-${ulid()}`,
      serialNumber: 'TERM-1',
      outletId: null,
      amount: '1000000',
      maskedPan: '506146******3210',
      approved: true,
      declineReason: null,
      decidedAt: new Date().toISOString(),
      ...overrides,
    });

    /** The postings of the entry booked for `reference`, as wallet type and amount. */
    const postingsOf = async (reference: string) =>
      (
        (await fixture.dataSource.query(
          `SELECT w.type, p.amount FROM outlets.postings p JOIN outlets.journal_entries e ON e.id = p.entry_id
           JOIN outlets.wallets w ON w.id = p.wallet_id WHERE e.reference = $1 ORDER BY w.type`,
          [reference],
        )) as { type: string; amount: string }[]
      ).map((posting) => [posting.type, BigInt(posting.amount)]);

    it('credits an approved transaction once, fee included, however often and however concurrently it arrives', async () => {
      const businessId = await fixture.business('test', ulid(), 'default');
      const outlet = await fixture.outlet(businessId);
      const approved = decision(businessId, { outletId: outlet.outletId });
      const eventId = randomUUID();
      // A redelivery of the same event, and the same decision in another event, at once.
      await Promise.all([
        fixture.get(PosCreditUseCase).apply(eventId, approved),
        fixture.get(PosCreditUseCase).apply(eventId, approved),
        fixture.get(PosCreditUseCase).apply(randomUUID(), approved),
      ]);
      await fixture.get(PosCreditUseCase).apply(eventId, approved);

      // The default plan's POS fee is 0.5%: ₦50 of ₦10,000, in the credit's own entry.
      expect(await postingsOf(approved.reference)).toEqual([
        ['collection', 995_000n],
        ['rail', -1_000_000n],
        ['revenue', 5_000n],
      ]);
      expect((await fixture.balances(outlet.collectionWallet.walletId)).ledger).toBe(995_000n);
      const events = (await fixture.partnerEvents(businessId)).filter((event) => event.event.startsWith('fundAccount'));
      expect(events).toEqual([
        {
          event: 'fundAccount.success',
          eventData: expect.objectContaining({
            productType: 'pos',
            transactionReference: approved.reference,
            transactionAccount: outlet.collectionWallet.accountNumber,
            amount: '1000000',
            fee: '5000',
            netAmount: '995000',
            transactionStatus: 'SUCCESS',
          }),
        },
      ]);
      expect(await fixture.unbalancedEntries(businessId)).toEqual([]);
    });

    it('credits the settlement wallet when the terminal has no outlet', async () => {
      const businessId = await fixture.business();
      const approved = decision(businessId);
      await fixture.get(PosCreditUseCase).apply(randomUUID(), approved);
      expect(await postingsOf(approved.reference)).toEqual([
        ['rail', -1_000_000n],
        ['settlement', 1_000_000n],
      ]);
    });

    it('books a free credit without waiting on the revenue or settlement wallet', async () => {
      const businessId = await fixture.business();
      const outlet = await fixture.outlet(businessId);
      const approved = decision(businessId, { outletId: outlet.outletId });
      // Another transaction holds both fee wallets until the credit is booked: were the credit to
      // lock them, neither would finish.
      const runner = fixture.dataSource.createQueryRunner();
      await runner.startTransaction();
      try {
        await runner.query(
          `SELECT id FROM outlets.wallets WHERE business_id = $1 AND type IN ('revenue', 'settlement') FOR UPDATE`,
          [businessId],
        );
        await fixture.get(PosCreditUseCase).apply(randomUUID(), approved);
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
      expect(await postingsOf(approved.reference)).toEqual([
        ['collection', 1_000_000n],
        ['rail', -1_000_000n],
      ]);
    });

    it("reads a terminal's wallet once, and again each time for an outlet it does not know", async () => {
      const businessId = await fixture.business();
      const outlet = await fixture.outlet(businessId);
      const reads = jest.spyOn(fixture.get(WalletsRepository), 'ofOutlets');
      const settlementReads = jest.spyOn(fixture.get(WalletsRepository), 'systemWallet');
      try {
        const credits = fixture.get(PosCreditUseCase);
        await credits.apply(randomUUID(), decision(businessId, { outletId: outlet.outletId }));
        await credits.apply(randomUUID(), decision(businessId, { outletId: outlet.outletId }));
        const stranger = decision(businessId, { outletId: ulid() });
        await credits.apply(randomUUID(), stranger);
        await credits.apply(randomUUID(), decision(businessId, { outletId: stranger.outletId }));
        expect(reads).toHaveBeenCalledTimes(3);
        expect(settlementReads).toHaveBeenCalledTimes(1);
        expect(await postingsOf(stranger.reference)).toEqual([
          ['rail', -1_000_000n],
          ['settlement', 1_000_000n],
        ]);
        expect((await fixture.balances(outlet.collectionWallet.walletId)).ledger).toBe(2_000_000n);
      } finally {
        jest.restoreAllMocks();
      }
    });

    it('reports a decline once and moves nothing', async () => {
      const businessId = await fixture.business();
      const declined = decision(businessId, { approved: false, declineReason: 'Insufficient funds' });
      const eventId = randomUUID();
      await fixture.get(PosCreditUseCase).apply(eventId, declined);
      await fixture.get(PosCreditUseCase).apply(eventId, declined);
      expect(await postingsOf(declined.reference)).toEqual([]);
      expect(await fixture.partnerEvents(businessId)).toEqual([
        {
          event: 'fundAccount.failed',
          eventData: expect.objectContaining({
            transactionReference: declined.reference,
            transactionStatus: 'FAILED',
            comment: 'Insufficient funds',
          }),
        },
      ]);
    });
  });

  describe('what the database itself refuses', () => {
    it('an entry whose postings do not sum to zero', async () => {
      await expect(
        fixture.dataSource.transaction(async (em) => {
          await em.query(
            `INSERT INTO outlets.journal_entries (id, business_id, kind, reference) VALUES ('bad-entry', $1, 'test', 'bad')`,
            [businessId],
          );
          await em.query(`INSERT INTO outlets.postings (entry_id, wallet_id, amount) VALUES ('bad-entry', $1, 5)`, [
            outlet.depositWallet.walletId,
          ]);
        }),
      ).rejects.toThrow('does not balance');
    });

    it('a posting that overdraws a protected wallet', async () => {
      const empty = await fixture.outlet(businessId, { accountName: 'Empty' });
      await expect(
        fixture.dataSource.transaction(async (em) => {
          await em.query(
            `INSERT INTO outlets.journal_entries (id, business_id, kind, reference) VALUES ('overdraw', $1, 'test', 'overdraw')`,
            [businessId],
          );
          await em.query(
            `INSERT INTO outlets.postings (entry_id, wallet_id, amount) VALUES ('overdraw', $1, -5), ('overdraw', $2, 5)`,
            [empty.collectionWallet.walletId, outlet.depositWallet.walletId],
          );
        }),
      ).rejects.toThrow('wallets_no_overdraft');
    });

    it('changing a posting after the fact', async () => {
      await expect(
        fixture.dataSource.query(
          `UPDATE outlets.postings SET amount = amount WHERE id = (SELECT min(id) FROM outlets.postings)`,
        ),
      ).rejects.toThrow('append-only');
    });
  });
});
