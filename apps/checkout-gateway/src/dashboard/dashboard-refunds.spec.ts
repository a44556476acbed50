import { RefundResponse } from '@payments/contracts';
import { DomainError } from '@payments/platform-envelope';

import { BusinessesService } from '../businesses/businesses.service';
import { RefundsService } from '../refunds/refunds.service';
import { DashboardRefunds, RefundConfirmation, refundRefusals } from './dashboard-refunds';
import { Member, MembersRepository } from './members.repository';

const member = (role: Member['role'] = 'operations', business_mode: Member['business_mode'] = 'test') =>
  ({ id: 'm1', business_id: 'b1', business_name: 'Acme', business_mode, email: 'ops@acme.example', role }) as Member;

/** RefundsService as the ledger answers it: the payment's refunds so far, and what create does. */
function refundsService(made: RefundResponse[], create: () => Promise<RefundResponse> = async () => made[0]) {
  return {
    list: jest.fn(async () => ({ items: made, nextCursor: null })),
    create: jest.fn(create),
  } as unknown as RefundsService & { create: jest.Mock; list: jest.Mock };
}

function refundsWith(service: RefundsService, audit: () => Promise<void> = async () => undefined) {
  const businesses = { find: async () => ({ id: 'b1', mode: 'test' }) } as unknown as BusinessesService;
  const members = { audit: jest.fn(audit) } as unknown as MembersRepository & { audit: jest.Mock };
  return { refunds: new DashboardRefunds(service, businesses, members), members };
}

const aRefund = { reference: 'RF-1', transactionReference: 'PAID-1', amount: '1000' } as RefundResponse;

async function confirmationOf(
  refunds: DashboardRefunds,
  session: string,
  amount = '10',
  reason = '',
): Promise<RefundConfirmation> {
  const intent = refunds.review(member(), 'PAID-1', amount, reason);
  if (typeof intent === 'string') throw new Error(intent);
  const shown = await refunds.confirmation(member(), session, intent);
  if (typeof shown === 'string') throw new Error(shown);
  return shown.confirmation;
}

describe('refunds from the dashboard', () => {
  it('gives the same refund one key, however often it is asked for, until it is made', async () => {
    const ledger = { made: [] as RefundResponse[] };
    const { refunds } = refundsWith(refundsService(ledger.made));
    const first = await confirmationOf(refunds, 'session-a', '10', 'Returned');
    // Again in another session, with the reason reworded: the same refund.
    const again = await confirmationOf(refunds, 'session-b', '10.00', 'returned, damaged');
    expect(again.key).toBe(first.key);
    expect((await confirmationOf(refunds, 'session-a', '20')).key).not.toBe(first.key);
    // A refund of another amount made meanwhile leaves the key as it was.
    ledger.made.push({ ...aRefund, reference: 'RF-0', amount: '500' });
    expect((await confirmationOf(refunds, 'session-a', '10', 'Returned')).key).toBe(first.key);
    // Once made, a refund of the same amount is another refund, with a key of its own.
    ledger.made.push(aRefund);
    expect((await confirmationOf(refunds, 'session-a', '10', 'Returned')).key).not.toBe(first.key);
  });

  it('accepts a confirmation only as this session was shown it', async () => {
    const { refunds } = refundsWith(refundsService([]));
    const shown = await confirmationOf(refunds, 'session-a');
    expect(refunds.confirmed(member(), 'session-a', { ...shown })).toEqual(shown);
    for (const posted of [
      { ...shown, amount: '100000' },
      { ...shown, reference: 'OTHER' },
      { ...shown, reason: 'changed' },
      { ...shown, key: `dashboard-${'0'.repeat(32)}` },
      { ...shown, seal: shown.seal.slice(1) },
      { ...shown, seal: `é${shown.seal.slice(1)}` }, // as many characters, more bytes
      { ...shown, amount: [shown.amount] },
      { reference: shown.reference },
    ]) {
      expect(refunds.confirmed(member(), 'session-a', posted)).toBe(refundRefusals.form);
    }
    expect(refunds.confirmed(member(), 'session-b', { ...shown })).toBe(refundRefusals.form);
    expect(refunds.confirmed(member('viewer'), 'session-a', { ...shown })).toBe(refundRefusals.role);
    expect(refunds.confirmed(member('developer'), 'session-a', { ...shown })).toBe(refundRefusals.role);
  });

  it('asks for nothing it cannot count the payment’s refunds for, and nothing for a live business', async () => {
    const unanswered = { list: async () => Promise.reject(new DomainError('SERVICE_UNAVAILABLE', 'late', 503)) };
    const { refunds } = refundsWith(unanswered as unknown as RefundsService);
    await expect(refunds.confirmation(member(), 's', { reference: 'PAID-1', amount: '', reason: '' })).resolves.toBe(
      refundRefusals.unreadable,
    );
    expect(refunds.review(member('owner', 'live'), 'PAID-1', '10', '')).toBe(refundRefusals.live);
    expect(refunds.review(member(), 'PAID-1', ['10'], '')).toBe(refundRefusals.form);
    expect(refunds.review(member(), 'PAID-1', '1,000,000,001', '')).toBe(refundRefusals.amount);
  });

  it('records each request before it is sent, and sends nothing it could not record', async () => {
    const service = refundsService([aRefund]);
    const { refunds, members } = refundsWith(service);
    const shown = await confirmationOf(refunds, 's');
    await expect(refunds.make(member(), shown, '198.51.100.7')).resolves.toBe(aRefund);
    expect(members.audit.mock.invocationCallOrder[0]).toBeLessThan(service.create.mock.invocationCallOrder[0]);
    expect(members.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'refund.requested', subject: `1000 kobo of PAID-1 (${shown.key})` }),
    );
    expect(service.create).toHaveBeenCalledWith(
      expect.anything(),
      { transactionReference: 'PAID-1', amount: '1000' },
      shown.key,
    );

    const service2 = refundsService([aRefund]);
    const broken = refundsWith(service2, () => Promise.reject(new Error('database down')));
    await expect(broken.refunds.make(member(), shown, '198.51.100.7')).rejects.toMatchObject({
      status: 503,
      message: refundRefusals.unrecorded,
    });
    expect(service2.create).not.toHaveBeenCalled();
  });

  it('says so when the same refund was asked for with another reason', async () => {
    const reused = new DomainError('IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key reused', 422);
    const { refunds } = refundsWith(refundsService([], () => Promise.reject(reused)));
    const shown = await confirmationOf(refunds, 's');
    await expect(refunds.make(member(), shown, '198.51.100.7')).rejects.toMatchObject({
      status: 422,
      message: refundRefusals.reused,
    });
  });
});
