import { CheckoutOutcome } from '@payments/contracts';
import { NewEvent, Outbox } from '@payments/platform-outbox';
import { EntityManager } from 'typeorm';

import { RailCredit, RailCredits } from '../money/rail-credits';
import { WalletsRepository } from '../money/wallets.repository';
import { CheckoutBooking } from './checkout-booking';
import { CheckoutOutcomesRepository } from './checkout-outcomes.repository';

/** A booking over stand-ins that record what it asked of the ledger, the outcomes table and the outbox. */
function booking() {
  const credits: RailCredit[] = [];
  const recorded: CheckoutOutcome[] = [];
  const announced: NewEvent<CheckoutOutcome>[] = [];
  const wallets = { systemWalletIds: async () => ({ settlement: 'w-settlement', rail: 'w-rail' }) };
  const railCredits = {
    credit: async (_em: EntityManager, credit: RailCredit) => {
      credits.push(credit);
      return { entry: { id: 'entry-1' }, charge: { fee: 150n, commission: 20n } };
    },
  };
  const outcomes = {
    recordCharge: async (_em: EntityManager, outcome: CheckoutOutcome) => void recorded.push(outcome),
  };
  const outbox = {
    enqueue: async (_em: EntityManager, event: NewEvent<CheckoutOutcome>) => void announced.push(event),
  };
  const unit = new CheckoutBooking(
    wallets as unknown as WalletsRepository,
    railCredits as unknown as RailCredits,
    outcomes as unknown as CheckoutOutcomesRepository,
    outbox as unknown as Outbox,
  );
  return { unit, credits, recorded, announced };
}

const em = {} as EntityManager;
const decided = (method: CheckoutOutcome['method']): CheckoutOutcome => ({
  businessId: 'biz-1',
  checkoutReference: 'CHK-7',
  status: 'SUCCESS',
  method,
  paymentId: 'p-1',
  maskedCard: null,
  comment: 'Paid',
});

describe('CheckoutBooking', () => {
  it.each([
    ['card', 'card'],
    ['qr-wallet', 'qr'],
    ['pay-with-transfer', 'transfer'],
  ] as const)('credits a %s payment to the settlement wallet at the %s price', async (method, product) => {
    const { unit, credits } = booking();
    await unit.book(em, decided(method), '10000');
    expect(credits).toEqual([
      {
        businessId: 'biz-1',
        product,
        walletId: 'w-settlement',
        amount: 10000n,
        kind: 'checkout',
        reference: 'CHK-7',
        narration: 'Checkout CHK-7',
      },
    ]);
  });

  it('keeps the charge the ledger took on the outcome, and sends that outcome to the gateway', async () => {
    const { unit, recorded, announced } = booking();
    const booked = await unit.book(em, decided('card'), '10000');
    const charge = { fee: '150', commission: '20', netAmount: '9850' };
    expect(booked).toEqual({ entryId: 'entry-1', outcome: { ...decided('card'), charge } });
    expect(recorded).toEqual([booked.outcome]);
    expect(announced.map((event) => [event.topic.name, event.type, event.key, event.payload])).toEqual([
      ['checkout.payments.v1', 'checkout.decided.v1', 'biz-1', booked.outcome],
    ]);
  });
});
