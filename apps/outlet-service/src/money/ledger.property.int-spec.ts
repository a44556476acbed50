import { OutletResponse } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';
import fc from 'fast-check';

import { CreditVirtualAccountUseCase } from '../funding/credit-virtual-account.usecase';
import { SweepSettingsService } from '../sweeps/sweep-settings.service';
import { Sweeper } from '../sweeps/sweeper';
import { OutletServiceFixture } from '../testing/outlet-service.fixture';
import { BankTransferUseCase } from '../transfers/bank-transfer.usecase';
import { InternalTransferUseCase } from '../transfers/internal-transfer.usecase';
import { PayoutSettler } from '../transfers/payout-settler';

jest.setTimeout(300_000);

type Operation =
  | { kind: 'credit'; wallet: number; amount: number; session: number }
  | { kind: 'transfer'; from: number; to: number; amount: number; reference: number }
  | { kind: 'payout'; from: number; amount: number; fails: boolean; reference: number }
  | { kind: 'settle' }
  | { kind: 'sweep' };

const amount = fc.integer({ min: 1, max: 20_000 });
// Small pools of references and session ids, so repeats (same and different content) happen.
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('credit' as const), wallet: fc.nat(5), amount, session: fc.nat(40) }),
  fc.record({ kind: fc.constant('transfer' as const), from: fc.nat(6), to: fc.nat(6), amount, reference: fc.nat(40) }),
  fc.record({
    kind: fc.constant('payout' as const),
    from: fc.nat(2),
    amount,
    fails: fc.boolean(),
    reference: fc.nat(40),
  }),
  fc.constant({ kind: 'settle' as const }),
  fc.constant({ kind: 'sweep' as const }),
);

/** Refusals a correct ledger may give to random commands; anything else is a bug. */
const expectedRefusals = new Set(['INSUFFICIENT_FUNDS', 'REFERENCE_CONFLICT', 'INVALID_TRANSFER']);

describe('ledger invariants under random concurrent money movements', () => {
  let fixture: OutletServiceFixture;

  beforeAll(async () => {
    // Sweeps and settlements run only as the generated operations say; a payout is due at once,
    // so that a generated settlement finds it.
    fixture = await OutletServiceFixture.start({
      stopped: [PayoutSettler, Sweeper],
      env: { PAYOUT_SETTLE_DELAY_MS: '0' },
    });
  });

  afterAll(() => fixture.close());

  async function violations(businessId: string): Promise<Record<string, unknown[]>> {
    const query = (sql: string) => fixture.dataSource.query(sql, [businessId]) as Promise<unknown[]>;
    return {
      unbalancedEntries: await fixture.unbalancedEntries(businessId),
      balancesUnlikePostings: await query(
        `SELECT w.id FROM outlets.wallets w
         LEFT JOIN (SELECT wallet_id, sum(amount) AS total FROM outlets.postings GROUP BY wallet_id) p ON p.wallet_id = w.id
         WHERE w.business_id = $1 AND w.ledger_balance <> coalesce(p.total, 0)`,
      ),
      holdsUnlikePayouts: await query(
        `SELECT w.id FROM outlets.wallets w
         LEFT JOIN (SELECT wallet_id, sum(amount) AS total FROM outlets.payouts WHERE status = 'PROCESSING' GROUP BY wallet_id) h
           ON h.wallet_id = w.id
         WHERE w.business_id = $1 AND w.held_balance <> coalesce(h.total, 0)`,
      ),
      negativeProtectedWallets: await query(
        `SELECT id FROM outlets.wallets WHERE business_id = $1 AND NOT allow_negative AND ledger_balance - held_balance < 0`,
      ),
      availableAboveLedger: await query(`SELECT id FROM outlets.wallets WHERE business_id = $1 AND held_balance < 0`),
      referencesAppliedTwice: await query(
        `SELECT kind, reference FROM outlets.journal_entries WHERE business_id = $1 GROUP BY kind, reference HAVING count(*) > 1`,
      ),
    };
  }

  it('keeps every invariant', async () => {
    let runs = 0;
    const succeeded: Record<Operation['kind'], number> = { credit: 0, transfer: 0, payout: 0, settle: 0, sweep: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 60, maxLength: 120 }), async (operations) => {
        runs += 1;
        const businessId = await fixture.business();
        await fixture
          .get(SweepSettingsService)
          .update(businessId, { enabled: true, threshold: '5000', intervalSeconds: 60 });
        const outlets: OutletResponse[] = [
          await fixture.outlet(businessId),
          await fixture.outlet(businessId),
          await fixture.outlet(businessId),
        ];
        const collections = outlets.map((outlet) => outlet.collectionWallet);
        const deposits = outlets.map((outlet) => outlet.depositWallet);
        const wallets = [...collections, ...deposits];
        const settlement = (await fixture.dataSource.query(
          `SELECT id FROM outlets.wallets WHERE business_id = $1 AND type = 'settlement'`,
          [businessId],
        )) as { id: string }[];
        const transferable = [...wallets.map((wallet) => wallet.walletId), settlement[0].id];
        // What each first-time success moved, by reference: a repeat must return the same answer.
        const firstAnswers = new Map<string, string>();

        const run = async (op: Operation): Promise<void> => {
          switch (op.kind) {
            case 'credit':
              await fixture.get(CreditVirtualAccountUseCase).execute(wallets[op.wallet].accountNumber, {
                amount: String(op.amount),
                sessionId: `${runs}-s-${op.session}`,
              });
              return;
            case 'transfer': {
              const answer = await fixture.get(InternalTransferUseCase).execute(businessId, {
                reference: `t-${op.reference}`,
                amount: String(op.amount),
                sourceWalletId: transferable[op.from],
                destinationWalletId: transferable[op.to],
              });
              const key = `t-${op.reference}`;
              const seen = firstAnswers.get(key);
              if (seen !== undefined) expect(JSON.stringify(answer)).toBe(seen);
              else firstAnswers.set(key, JSON.stringify(answer));
              return;
            }
            case 'payout':
              await fixture.get(BankTransferUseCase).execute(businessId, {
                reference: `p-${op.reference}`,
                amount: String(op.amount),
                sourceWalletId: deposits[op.from].walletId,
                bankCode: '058',
                accountNumber: op.fails ? '0000000000' : '0690000031',
                accountName: 'Beneficiary',
              });
              return;
            case 'settle':
              await fixture.get(PayoutSettler).settleNext();
              return;
            case 'sweep':
              await fixture.dataSource.query(`UPDATE outlets.tenants SET next_sweep_at = NULL WHERE business_id = $1`, [
                businessId,
              ]);
              await fixture.get(Sweeper).sweepDue();
              return;
          }
        };

        // Ten at a time: enough contention on few wallets to race every lock.
        for (let start = 0; start < operations.length; start += 10) {
          const batch = operations.slice(start, start + 10);
          const outcomes = await Promise.allSettled(batch.map(run));
          for (const [index, outcome] of outcomes.entries()) {
            if (outcome.status === 'fulfilled') succeeded[batch[index].kind] += 1;
            else {
              const error = outcome.reason as unknown;
              if (!(error instanceof DomainError) || !expectedRefusals.has(error.code)) throw error;
            }
          }
        }
        expect(await violations(businessId)).toEqual({
          unbalancedEntries: [],
          balancesUnlikePostings: [],
          holdsUnlikePayouts: [],
          negativeProtectedWallets: [],
          availableAboveLedger: [],
          referencesAppliedTwice: [],
        });
      }),
      { numRuns: 40 },
    );
    expect(runs).toBeGreaterThanOrEqual(40);
    // The invariants were tested against real movement, not a ledger that refused everything.
    expect(
      Math.min(succeeded.credit, succeeded.transfer, succeeded.payout, succeeded.settle, succeeded.sweep),
    ).toBeGreaterThan(20);
  });
});
