import { randomUUID } from 'node:crypto';

import { OutletResponse, RefundPage, Topics, TransactionPage, TransactionResponse } from '@payments/contracts';
import { createKafkaClient } from '@payments/platform-kafka';
import { eventually, samplePosPayload, testEnvironment } from '@payments/testing';
import { Partitioners } from 'kafkajs';

import { allApps, appPorts, npmRun, useApps } from './apps';
import {
  callGateway,
  createCheckout,
  createPartner,
  onboardedPartner,
  PartnerCredentials,
  registerTerminal,
  submitPos,
} from './partners';

jest.setTimeout(300_000);

/** Fees, refunds and the transaction history, as a partner meets them over HTTP. */
describe('what partners expect of a collections API', () => {
  let partner: PartnerCredentials;
  let stranger: PartnerCredentials;

  useApps(allApps, {
    'outlet-service': { PAYOUT_SETTLE_DELAY_MS: '300', PAYOUT_POLL_INTERVAL_MS: '100' },
  });

  beforeAll(async () => {
    partner = await onboardedPartner('Money Partner');
    stranger = createPartner('Stranger');
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    callGateway(partner, method, path, body, headers);
  const refund = (body: Record<string, unknown>, key: string | null = randomUUID()) =>
    call('POST', '/refunds', body, key === null ? {} : { 'idempotency-key': key });

  async function paidByCard(amount: string): Promise<string> {
    const reference = await createCheckout(partner, ['card'], amount, 'Money Shop');
    const paid = await call('POST', `/checkout/${reference}/card-payment`, {
      cardNumber: '5060990000000000019',
      expiryDate: '12/30',
      cvv: '123',
    });
    expect(paid.body.data).toMatchObject({ transactionStatus: 'SUCCESS' });
    return reference;
  }

  /** The transaction once the history has it (it follows the events within moments). */
  const listed = (reference: string, ready: (transaction: TransactionResponse) => boolean = () => true) =>
    eventually(async () => {
      const answer = await callGateway<TransactionResponse>(partner, 'GET', `/transactions/${reference}`);
      return answer.status === 200 && ready(answer.body.data) ? answer.body.data : undefined;
    }, 30_000);

  it('charges the default plan, and a new plan set by an operator applies to new payments only', async () => {
    const first = await paidByCard('250000');
    const transaction = await listed(first);
    // Exactly the documented fields: no other column of the table reaches a partner.
    expect(Object.keys(transaction).sort()).toEqual(
      [
        'reference',
        'productType',
        'transactionType',
        'transactionStatus',
        'amount',
        'fee',
        'commission',
        'netAmount',
        'transactionAccount',
        'outletId',
        'sessionId',
        'customerReference',
        'comment',
        'event',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(transaction).toMatchObject({
      productType: 'checkout',
      transactionStatus: 'SUCCESS',
      amount: '250000',
      fee: '3750', // 1.5%
      netAmount: '246250',
      commission: '0',
    });
    const set = npmRun('pricing:set', [
      '--business',
      partner.businessId,
      '--product',
      'card',
      '--percent',
      '2',
      '--cap',
      '1000',
      '--commission',
      '10',
      '--json',
    ]);
    expect(set.status).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ product: 'card', percent: 2, capKobo: '1000' });
    const second = await paidByCard('250000');
    expect(await listed(second)).toMatchObject({ fee: '1000', commission: '100', netAmount: '249000' });
    expect((await listed(first)).fee).toBe('3750');
    const refused = npmRun('pricing:set', ['--business', partner.businessId, '--product', 'gold']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--product must be one of card, transfer, qr, pos, payout');
    const stranger = npmRun('pricing:set', ['--business', 'NO-SUCH-BUSINESS', '--product', 'card', '--percent', '1']);
    expect(stranger.status).toBe(2);
    expect(stranger.stderr).toContain('business NO-SUCH-BUSINESS is not known to outlet-service');
  });

  it('refunds a card checkout in parts, never more than was paid, and says why when it will not', async () => {
    const reference = await paidByCard('200000');
    await listed(reference);
    const key = randomUUID();
    const part = await refund({ transactionReference: reference, amount: '50000', reason: 'One item back' }, key);
    expect([part.status, part.body.data]).toEqual([
      200,
      expect.objectContaining({ transactionReference: reference, amount: '50000', status: 'PENDING' }),
    ]);
    const retried = await refund({ transactionReference: reference, amount: '50000', reason: 'One item back' }, key);
    expect(retried.body.data).toEqual(part.body.data);
    const refundReference = part.body.data.reference as string;
    const processed = await eventually(async () => {
      const answer = await call('GET', `/refunds/${refundReference}`);
      return answer.body.data.status === 'PROCESSED' ? answer : undefined;
    }, 30_000);
    expect(processed.status).toBe(200);
    // The rest, without an amount; then nothing is left.
    expect((await refund({ transactionReference: reference })).body.data).toMatchObject({ amount: '150000' });
    const again = await refund({ transactionReference: reference, amount: '1' });
    expect([again.status, again.body.data.code]).toEqual([422, 'REFUND_NOT_ALLOWED']);
    // The history shows each refund, and follows it to the end.
    expect(await listed(refundReference, (transaction) => transaction.transactionStatus === 'SUCCESS')).toMatchObject({
      productType: 'refund',
      transactionType: 'DEBIT',
      amount: '50000',
      comment: 'One item back',
      event: 'refund.processed',
    });

    const unpaid = await createCheckout(partner, ['card'], '10000', 'Unpaid');
    const refused = await refund({ transactionReference: unpaid });
    expect([refused.status, refused.body.data.code]).toEqual([422, 'REFUND_NOT_ALLOWED']);
    const unknown = await refund({ transactionReference: 'nothing-like-it' });
    expect([unknown.status, unknown.body.data.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    const keyless = await refund({ transactionReference: reference }, null);
    expect([keyless.status, keyless.body.data.code]).toEqual([422, 'VALIDATION_FAILED']);
    const missing = await call('GET', '/refunds/RFD-unknown');
    expect([missing.status, missing.body.data.code]).toEqual([404, 'REFUND_NOT_FOUND']);
    const foreign = await callGateway(stranger, 'GET', `/refunds/${refundReference}`);
    expect([foreign.status, foreign.body.data.code]).toEqual([404, 'REFUND_NOT_FOUND']);
  });

  it("lists refunds newest first, filtered, a page at a time, and only the business's own", async () => {
    const reference = await paidByCard('90000');
    const accepted: string[] = [];
    for (const amount of ['10000', '20000', '30000']) {
      const answer = await refund({ transactionReference: reference, amount });
      expect(answer.status).toBe(200);
      accepted.push(answer.body.data.reference as string);
    }
    const list = (query: string, as = partner) => callGateway<RefundPage>(as, 'GET', `/refunds?${query}`);
    const first = await list(`transactionReference=${reference}&limit=2`);
    expect(first.body.data.items.map((item) => [item.reference, item.amount])).toEqual([
      [accepted[2], '30000'],
      [accepted[1], '20000'],
    ]);
    const second = await list(`transactionReference=${reference}&limit=2&cursor=${first.body.data.nextCursor!}`);
    expect(second.body.data).toEqual({
      items: [expect.objectContaining({ reference: accepted[0] })],
      nextCursor: null,
    });

    expect((await list(`transactionReference=${reference}&status=FAILED`)).body.data.items).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await list(`transactionReference=${reference}&from=${future}`)).body.data.items).toEqual([]);
    for (const bad of [
      'cursor=not-a-cursor',
      'cursor=OTk5OTk5OTk5OTk5OTk5OTk5OQ',
      'from=2026-W47',
      'status=DONE',
      'limit=101',
    ]) {
      const answer = await list(bad);
      expect([bad, answer.status, (answer.body.data as unknown as { code: string }).code]).toEqual([
        bad,
        422,
        'VALIDATION_FAILED',
      ]);
    }
    expect((await list(`transactionReference=${reference}`, stranger)).body.data.items).toEqual([]);
  });

  it('refuses a refund the wallet can no longer pay, and refunds a checkout paid by transfer', async () => {
    const reference = await paidByCard('100000');
    const settlement = await call('GET', '/wallets/settlement');
    const outlet = await call('POST', '/outlets', { accountName: 'Refund Outlet' });
    const available = settlement.body.data.availableBalance as string;
    const moved = await call('POST', '/transfer/internal', {
      reference: `drain-${randomUUID()}`,
      amount: available,
      sourceWalletId: settlement.body.data.walletId,
      destinationWalletId: (outlet.body.data.depositWallet as { walletId: string }).walletId,
    });
    expect(moved.status).toBe(200);
    const short = await refund({ transactionReference: reference });
    expect([short.status, short.body.data.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);

    const byTransfer = await createCheckout(partner, ['pay-with-transfer'], '80000', 'Transfer Shop');
    const account = await call('POST', `/checkout/${byTransfer}/pay-with-transfer`);
    const credited = await call(
      'POST',
      `/sandbox/virtual-accounts/${account.body.data.accountNumber as string}/credit`,
      {
        amount: '80000',
      },
    );
    expect(credited.body.data).toMatchObject({ fee: '800', netAmount: '79200' }); // 1% in
    // Only the net amount reached the wallet, which now holds nothing else: the full refund does not fit.
    const whole = await refund({ transactionReference: byTransfer });
    expect([whole.status, whole.body.data.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
    const net = await refund({ transactionReference: byTransfer, amount: '79200', reason: 'decline' });
    expect(net.body.data).toMatchObject({ productType: 'checkout', amount: '79200', status: 'PENDING' });
    const declined = await eventually(async () => {
      const answer = await call('GET', `/refunds/${net.body.data.reference as string}`);
      return answer.body.data.status === 'FAILED' ? answer.body.data : undefined;
    }, 30_000);
    expect(declined.amount).toBe('79200');
  });

  it('never acts on a transfer its requester stopped waiting for, so a refused retry stays refused', async () => {
    await paidByCard('50000');
    const settlement = (await call('GET', '/wallets/settlement')).body.data.walletId as string;
    const outlet = (await call('POST', '/outlets', { accountName: 'Late Outlet' })).body
      .data as unknown as OutletResponse;
    const transfer = (reference: string) => ({
      reference,
      amount: '1000',
      sourceWalletId: settlement,
      destinationWalletId: outlet.depositWallet.walletId,
    });
    // Two requests as the gateway sends them, to one partition, the first already past its deadline.
    const late = `late-${randomUUID()}`;
    const kafka = createKafkaClient({ brokers: testEnvironment().KAFKA_BROKERS!.split(','), clientId: late });
    // The messages name their partition, so the partitioner never runs; naming one keeps kafkajs quiet.
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    const admin = kafka.admin();
    await Promise.all([producer.connect(), admin.connect()]);
    try {
      const request = (reference: string, deadline: number) => ({
        partition: 0,
        value: JSON.stringify({
          type: 'internalTransfer',
          businessId: partner.businessId,
          request: transfer(reference),
        }),
        headers: {
          'reply-topic': Topics.commandReplies.name,
          'reply-partition': '0',
          'correlation-id': `${reference}.1`,
          'reply-deadline': String(deadline),
        },
      });
      const [written] = await producer.send({
        topic: Topics.outletCommands.name,
        messages: [request(late, Date.now() - 1), request(`waited-for-${randomUUID()}`, Date.now() + 60_000)],
      });
      // outlet-service is done with both once its group's committed offset has passed them.
      await eventually(async () => {
        const [{ partitions }] = await admin.fetchOffsets({
          groupId: 'outlet-service.commands',
          topics: [Topics.outletCommands.name],
        });
        const committed = partitions.find((candidate) => candidate.partition === 0)?.offset ?? '-1';
        return BigInt(committed) >= BigInt(written.baseOffset!) + 2n ? true : undefined;
      }, 30_000);
    } finally {
      await Promise.all([producer.disconnect(), admin.disconnect()]);
    }
    const deposit = async () =>
      ((await call('GET', `/outlets/${outlet.outletId}`)).body.data as unknown as OutletResponse).depositWallet;
    expect((await deposit()).ledgerBalance).toBe('1000');
    // The late request's reference is the caller's to retry.
    const retried = await call('POST', '/transfer/internal', transfer(late));
    expect([retried.status, retried.body.data.transactionStatus]).toEqual([200, 'SUCCESS']);
    expect((await deposit()).ledgerBalance).toBe('2000');
  });

  it('refunds a POS payment from its outlet, and lists it by outlet', async () => {
    const outlet = (await call('POST', '/outlets', { accountName: 'POS Outlet' })).body.data as { outletId: string };
    const serial = `SN-MONEY-${randomUUID().slice(0, 8)}`;
    await registerTerminal(partner.businessId, serial, outlet.outletId);
    const submitted = await submitPos(serial, partner.posEncryptionKey, samplePosPayload({ amount: '120000' }));
    expect(submitted.status).toBe(200);
    const credited = await eventually(async () => {
      const page = await callGateway<TransactionPage>(
        partner,
        'GET',
        `/transactions?outletId=${outlet.outletId}&productType=pos`,
      );
      return page.body.data.items[0];
    }, 60_000);
    expect(credited).toMatchObject({ amount: '120000', fee: '600', netAmount: '119400', outletId: outlet.outletId });
    const answer = await refund({ transactionReference: credited.reference, amount: '119400' });
    expect(answer.body.data).toMatchObject({ productType: 'pos', status: 'PENDING' });
    const over = await refund({ transactionReference: credited.reference, amount: '601' });
    expect([over.status, over.body.data.code]).toEqual([422, 'REFUND_NOT_ALLOWED']);
  });

  it('pages with a cursor that stays correct while new transactions arrive', async () => {
    const outlet = (await call('POST', '/outlets', { accountName: 'Paging Outlet' })).body.data as {
      outletId: string;
      collectionWallet: { accountNumber: string };
    };
    const credit = (amount: string) =>
      call('POST', `/sandbox/virtual-accounts/${outlet.collectionWallet.accountNumber}/credit`, { amount });
    for (const amount of ['10000', '20000', '30000', '40000', '50000']) expect((await credit(amount)).status).toBe(200);
    const page = (query: string) =>
      callGateway<TransactionPage>(partner, 'GET', `/transactions?outletId=${outlet.outletId}&${query}`);
    const all = await eventually(async () => {
      const items = (await page('limit=100')).body.data.items;
      return items.length === 5 ? items : undefined;
    }, 30_000);
    expect(all.map((item) => item.amount)).toEqual(['50000', '40000', '30000', '20000', '10000']);

    const first = await page('limit=2');
    expect(first.body.data.items.map((item) => item.amount)).toEqual(['50000', '40000']);
    // Newer transactions arrive between pages: they belong before the first page, not in the next.
    for (const amount of ['60000', '70000']) await credit(amount);
    await eventually(async () => ((await page('limit=100')).body.data.items.length === 7 ? true : undefined), 30_000);
    const second = await page(`limit=2&cursor=${first.body.data.nextCursor!}`);
    expect(second.body.data.items.map((item) => item.amount)).toEqual(['30000', '20000']);
    const third = await page(`limit=2&cursor=${second.body.data.nextCursor!}`);
    expect(third.body.data).toEqual({ items: [expect.objectContaining({ amount: '10000' })], nextCursor: null });

    expect((await page('status=FAILED')).body.data.items).toEqual([]);
    const referenced = await page(`reference=${all[2].reference}`);
    expect(referenced.body.data.items).toEqual([all[2]]);
    const future = await page(`from=${new Date(Date.now() + 3_600_000).toISOString()}`);
    expect(future.body.data.items).toEqual([]);
    const badCursor = await call('GET', '/transactions?cursor=not-a-cursor');
    expect([badCursor.status, badCursor.body.data.code]).toEqual([422, 'VALIDATION_FAILED']);
    const badRange = await call('GET', '/transactions?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z');
    expect([badRange.status, badRange.body.data.code]).toEqual([422, 'VALIDATION_FAILED']);

    // Another business sees none of it.
    const theirs = await callGateway<TransactionPage>(stranger, 'GET', `/transactions?outletId=${outlet.outletId}`);
    expect(theirs.body.data.items).toEqual([]);
    const one = await callGateway(stranger, 'GET', `/transactions/${all[0].reference}`);
    expect([one.status, one.body.data.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
  });

  it('keeps a transfer named like a refund or a checkout apart from them in the history', async () => {
    const checkout = await paidByCard('30000');
    await listed(checkout);
    const refunded = (await refund({ transactionReference: checkout, amount: '10000' })).body.data.reference as string;
    await listed(refunded, (transaction) => transaction.transactionStatus === 'SUCCESS');
    const outlet = (await callGateway<OutletResponse>(partner, 'POST', '/outlets', { accountName: 'Namesake Outlet' }))
      .body.data;
    const credited = await call('POST', `/sandbox/virtual-accounts/${outlet.collectionWallet.accountNumber}/credit`, {
      amount: '10000',
    });
    expect(credited.status).toBe(200);
    for (const reference of [refunded, checkout]) {
      const transfer = await call('POST', '/transfer/internal', {
        reference,
        amount: '100',
        sourceWalletId: outlet.collectionWallet.walletId,
        destinationWalletId: outlet.depositWallet.walletId,
      });
      expect(transfer.status).toBe(200);
    }

    const sharing = (reference: string) =>
      eventually(async () => {
        const items = (await callGateway<TransactionPage>(partner, 'GET', `/transactions?reference=${reference}`)).body
          .data.items;
        return items.length === 2
          ? items.map((item) => [item.productType, item.amount, item.transactionStatus])
          : undefined;
      }, 30_000);
    expect(await sharing(refunded)).toEqual([
      ['internal_transfer', '100', 'SUCCESS'],
      ['refund', '10000', 'SUCCESS'],
    ]);
    expect(await sharing(checkout)).toEqual([
      ['internal_transfer', '100', 'SUCCESS'],
      ['checkout', '30000', 'SUCCESS'],
    ]);
    const one = async (productType: string) =>
      (await callGateway<TransactionResponse>(partner, 'GET', `/transactions/${checkout}?productType=${productType}`))
        .body.data;
    expect(await one('checkout')).toMatchObject({ productType: 'checkout', amount: '30000' });
    expect(await one('internal_transfer')).toMatchObject({ productType: 'internal_transfer', amount: '100' });
  });

  it('answers 422 naming the field for text that is not well-formed Unicode, in any string field', async () => {
    // JSON's \\uD800 escape carries a lone surrogate; the email validator would throw on it.
    const body = '{"amount":"150000","accountName":"Shop","email":"ada@exa\\ud800mple.com","paymentMethod":["card"]}';
    const answer = await fetch(`http://127.0.0.1:${appPorts['checkout-gateway']}/payin/charge/requests`, {
      method: 'POST',
      headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { data: unknown }).data).toEqual({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'email', messages: [expect.stringContaining('well-formed Unicode')] }],
    });
    const outlet = await call('POST', '/outlets', { accountName: 'Shop \udc00' });
    expect([outlet.status, outlet.body.data.code]).toEqual([422, 'VALIDATION_FAILED']);
  });

  it('refuses a cursor or a date no page could have meant, before reading anything', async () => {
    const refused = async (path: string) => {
      const answer = await call('GET', path);
      return [answer.status, answer.body.data.code];
    };
    const invalid = [422, 'VALIDATION_FAILED'];
    // 9999999999999999999: a position past PostgreSQL's bigint.
    expect(await refused('/transactions?cursor=OTk5OTk5OTk5OTk5OTk5OTk5OQ')).toEqual(invalid);
    // ISO 8601 forms a validator reads and JavaScript does not: week dates, compact and ordinal dates.
    for (const date of ['2026-W47', '2026-W47-5', '19700101', '2026-331']) {
      expect(await refused(`/transactions?from=${date}`)).toEqual(invalid);
    }
    expect(await refused('/transactions/export?from=19700101&to=20991231')).toEqual(invalid);
    expect(await refused('/transactions?from=20300101&to=20200101')).toEqual(invalid);
    expect(await refused('/transactions?from=2030-01-01&to=2020-01-01')).toEqual(invalid);
    // A range past the cap, written as dates without a time, is still past the cap.
    expect(await refused('/transactions/export?from=2025-01-01&to=2026-06-01')).toEqual(invalid);

    // A date without a time is its midnight UTC, in the check, the query and the file name alike.
    const response = await fetch(
      `http://127.0.0.1:${appPorts['checkout-gateway']}/transactions/export?from=2026-01-01&to=2026-01-02T12:00:00%2B01:00`,
      { headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="transactions-2026-01-01-2026-01-02.csv"',
    );
  });

  it('exports a date range as CSV a spreadsheet opens: BOM, header row, naira with two decimals', async () => {
    const outlet = (await call('POST', '/outlets', { accountName: 'Export Outlet' })).body.data as {
      outletId: string;
      collectionWallet: { accountNumber: string };
    };
    const from = new Date(Date.now() - 1000).toISOString();
    for (const amount of ['123456', '5']) {
      await call('POST', `/sandbox/virtual-accounts/${outlet.collectionWallet.accountNumber}/credit`, { amount });
    }
    await eventually(async () => {
      const items = (await call('GET', `/transactions?outletId=${outlet.outletId}`)).body.data.items as unknown[];
      return items.length === 2 ? true : undefined;
    }, 30_000);
    const to = new Date(Date.now() + 60_000).toISOString();
    const response = await fetch(
      `http://127.0.0.1:${appPorts['checkout-gateway']}/transactions/export?outletId=${outlet.outletId}&from=${from}&to=${to}`,
      { headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="transactions-.*\.csv"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Date (UTC),Reference,Product,Type,Status,Amount (NGN),Fee (NGN),Commission (NGN),Net amount (NGN),' +
        'Account,Outlet,Session,Customer reference,Comment',
    );
    const rows = lines.slice(1).map((line) => line.split(','));
    // Oldest first; 1% in, capped at ₦300 and never more than the amount.
    expect(rows.map((row) => row.slice(2, 9))).toEqual([
      ['collection', 'CREDIT', 'SUCCESS', '1234.56', '12.35', '0.00', '1222.21'],
      ['collection', 'CREDIT', 'SUCCESS', '0.05', '0.00', '0.00', '0.05'],
    ]);
    expect(rows.every((row) => row[10] === outlet.outletId)).toBe(true);

    const missing = await call('GET', '/transactions/export');
    expect([missing.status, missing.body.data.code]).toEqual([422, 'VALIDATION_FAILED']);
    const tooLong = await call('GET', `/transactions/export?from=2025-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`);
    expect([tooLong.status, tooLong.body.data.code]).toEqual([422, 'VALIDATION_FAILED']);
  });
});
