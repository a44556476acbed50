import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { allTopics, CheckoutPaidV1, commandContracts, eventContracts, Topics } from '@payments/contracts';
import { checkContract, createKafkaClient } from '@payments/platform-kafka';
import { eventually, samplePosPayload, testEnvironment } from '@payments/testing';
import { Consumer, KafkaMessage } from 'kafkajs';

import { allApps, useApps } from './apps';
import {
  callGateway,
  createCheckout,
  createPartner,
  decideOnBankPage,
  PartnerCredentials,
  registerTerminal,
  submitPos,
} from './partners';

jest.setTimeout(240_000);

/** Produced by earlier versions only: consumers still read it, nothing writes it any more. */
const consumedOnly = new Set([CheckoutPaidV1]);
const commandTopics = new Set(Object.keys(commandContracts));
/** Topics whose messages have contracts: events and commands (replies and parked messages do not). */
const contractTopics = allTopics
  .map((topic) => topic.name)
  .filter((name) => !name.endsWith('.dlq') && name !== Topics.commandReplies.name);

interface Recorded {
  topic: string;
  message: KafkaMessage;
}

/**
 * Everything written to the contract topics from now on: the high watermarks are read first,
 * then each partition is read from there, so messages of earlier runs on the same broker (some
 * of them deliberately broken by other suites) are never read.
 */
async function recordFromNow(
  brokers: string,
): Promise<{ recorded: Recorded[]; drain: () => Promise<void>; stop: () => Promise<void> }> {
  const kafka = createKafkaClient({ brokers: brokers.split(','), clientId: `contracts-${Date.now()}` });
  const admin = kafka.admin();
  await admin.connect();
  /** Where this run begins, per `topic:partition`. */
  const starts = new Map<string, bigint>();
  for (const topic of contractTopics) {
    for (const { partition, offset } of await admin.fetchTopicOffsets(topic)) {
      starts.set(`${topic}:${partition}`, BigInt(offset));
    }
  }
  const recorded: Recorded[] = [];
  /** The next offset to read, per `topic:partition`. */
  const reached = new Map<string, bigint>();
  const consumer: Consumer = kafka.consumer({ groupId: `contracts-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: contractTopics, fromBeginning: false });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      const key = `${topic}:${partition}`;
      if (BigInt(message.offset) >= (starts.get(key) ?? 0n)) recorded.push({ topic, message });
      reached.set(key, BigInt(message.offset) + 1n);
    },
  });
  for (const [key, offset] of starts) {
    const [topic, partition] = key.split(':');
    consumer.seek({ topic, partition: Number(partition), offset: offset.toString() });
  }
  /** Waits until every partition has been read up to where it ends now. */
  const drain = async () => {
    const ends = new Map<string, bigint>();
    for (const topic of contractTopics) {
      for (const { partition, offset } of await admin.fetchTopicOffsets(topic)) {
        ends.set(`${topic}:${partition}`, BigInt(offset));
      }
    }
    await eventually(
      () =>
        [...ends].every(([key, end]) => end <= (starts.get(key) ?? 0n) || (reached.get(key) ?? 0n) >= end)
          ? true
          : undefined,
      60_000,
    );
    await stop();
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await consumer.disconnect();
    await admin.disconnect();
  };
  return { recorded, drain, stop };
}

describe('contracts: every message the services write keeps its contract in libs/contracts', () => {
  // The sandbox dispatcher may deliver to this machine's own receiver.
  useApps(allApps, { 'webhook-dispatcher': { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' } });
  let partner: PartnerCredentials;
  let recording: Awaited<ReturnType<typeof recordFromNow>>;

  let receiver: Server;
  let receiverUrl: string;

  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await callGateway(partner, method, path, body);
    expect({ path, status: answer.status, text: answer.text }).toMatchObject({ status: 200 });
    return answer.body.data;
  };
  const checkout = (paymentMethod: string[]) => createCheckout(partner, paymentMethod, '150000', 'Contract Shop');

  beforeAll(async () => {
    receiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    recording = await recordFromNow(testEnvironment().KAFKA_BROKERS!);
    partner = createPartner('Contract Partner');
  });

  afterAll(async () => {
    await recording?.stop();
    receiver?.close();
  });

  it('drives every command and event, and finds no message in breach', async () => {
    // Webhook commands.
    await eventually(
      async () => ((await callGateway(partner, 'GET', '/webhooks/endpoint')).status === 200 ? true : undefined),
      30_000,
    );
    await ok('PUT', '/webhooks/endpoint', { url: receiverUrl });
    await ok('POST', '/webhooks/test');
    const deliveryId = await eventually(async () => {
      const page = (await ok('GET', '/webhooks/deliveries')) as { items: { deliveryId: string }[] };
      return page.items[0]?.deliveryId;
    }, 30_000);
    await ok('GET', `/webhooks/deliveries/${deliveryId}`);
    await ok('POST', `/webhooks/deliveries/${deliveryId}/replay`);
    const { endpointId } = (await ok('POST', '/webhooks/endpoints', { url: receiverUrl, events: ['*'] })) as {
      endpointId: string;
    };
    await ok('GET', '/webhooks/endpoints');
    await ok('GET', `/webhooks/endpoints/${endpointId}`);
    await ok('PATCH', `/webhooks/endpoints/${endpointId}`, { description: 'contracts' });
    await ok('POST', `/webhooks/endpoints/${endpointId}/roll-secret`, { gracePeriodHours: 0 });
    await ok('DELETE', `/webhooks/endpoints/${endpointId}`);

    // Outlets, wallets, money.
    const outlet = (await eventually(async () => {
      const answer = await callGateway(partner, 'POST', '/outlets', { accountName: 'Contract Outlet' });
      return answer.status === 200 ? answer.body.data : undefined;
    }, 30_000)) as {
      outletId: string;
      collectionWallet: { walletId: string; accountNumber: string };
      depositWallet: { walletId: string };
    };
    await ok('GET', `/outlets/${outlet.outletId}`);
    await ok('GET', '/outlets?search=Contract');
    await ok('GET', '/wallets/settlement');
    await ok('PUT', '/outlets/sweep-settings', { enabled: false, threshold: '100000', intervalSeconds: 3600 });
    await ok('POST', `/sandbox/virtual-accounts/${outlet.collectionWallet.accountNumber}/credit`, { amount: '500000' });
    await ok('POST', '/transfer/internal', {
      reference: `contract-${Date.now()}`,
      amount: '200000',
      sourceWalletId: outlet.collectionWallet.walletId,
      destinationWalletId: outlet.depositWallet.walletId,
    });
    await ok('POST', '/transfer/bank', {
      reference: `contract-payout-${Date.now()}`,
      amount: '5000',
      sourceWalletId: outlet.depositWallet.walletId,
      bankCode: '058',
      accountNumber: '0690000031',
      accountName: 'Bola Ade',
    });

    // Checkouts: card with a PIN, 3-D Secure on the bank page, a declined card, transfer and QR.
    const byCard = await checkout(['card']);
    await ok('POST', `/checkout/${byCard}/card-payment`, {
      cardNumber: '5060990000000000027',
      expiryDate: '12/30',
      cvv: '123',
    });
    await ok('POST', `/checkout/${byCard}/card-authorization`, { pin: '1234' });
    expect(await ok('POST', `/checkout/${byCard}/card-authorization`, { otp: '123456' })).toMatchObject({
      transactionStatus: 'SUCCESS',
    });
    // The payment sent again once it paid the checkout: answered with how its charge ended.
    expect(
      await ok('POST', `/checkout/${byCard}/card-payment`, {
        cardNumber: '5060990000000000027',
        expiryDate: '12/30',
        cvv: '123',
      }),
    ).toMatchObject({ transactionStatus: 'SUCCESS' });
    // A partial refund of it, and its status.
    const refunded = await callGateway(
      partner,
      'POST',
      '/refunds',
      { transactionReference: byCard, amount: '1000' },
      {
        'idempotency-key': `contract-refund-${Date.now()}`,
      },
    );
    expect(refunded.status).toBe(200);
    await ok('GET', `/refunds/${refunded.body.data.reference as string}`);
    await ok('GET', `/refunds?transactionReference=${byCard}&limit=5`);
    const by3ds = await checkout(['card']);
    const challenge = (await ok('POST', `/checkout/${by3ds}/card-payment`, {
      cardNumber: '4000000000003006',
      expiryDate: '12/30',
      cvv: '123',
    })) as { redirectUrl: string };
    const approved = await decideOnBankPage(challenge.redirectUrl, 'approve');
    expect(approved.status).toBe(303);
    const declined = await checkout(['card']);
    expect(
      await ok('POST', `/checkout/${declined}/card-payment`, {
        cardNumber: '4000000000000002',
        expiryDate: '12/30',
        cvv: '123',
      }),
    ).toMatchObject({ transactionStatus: 'FAILED' });
    const byTransfer = await checkout(['pay-with-transfer']);
    const account = (await ok('POST', `/checkout/${byTransfer}/pay-with-transfer`)) as {
      accountNumber: string;
      amount: string;
    };
    await ok('POST', `/sandbox/virtual-accounts/${account.accountNumber}/credit`, { amount: account.amount });
    const byQr = await checkout(['qr-wallet']);
    const qr = (await ok('POST', `/checkout/${byQr}/qr`)) as { qrPayload: string };
    await ok('POST', '/sandbox/qr-wallet/pay', { qrPayload: qr.qrPayload });

    // A POS submission, once the terminal is registered.
    const serial = `SN-CONTRACT-${Date.now()}`;
    await registerTerminal(partner.businessId, serial, outlet.outletId);
    const pos = await submitPos(serial, partner.posEncryptionKey, samplePosPayload({ amount: '25000' }));
    expect(pos.status).toBe(200);

    // A key roll; the rolled pair keeps working for the calls below.
    await ok('POST', '/business/keys/roll', { gracePeriodHours: 1 });

    // Every decision reaches the gateway and the dispatcher before the topics are read to the end.
    const expected: Record<string, number> = { 'checkout.success': 4, 'checkout.failed': 1, 'fundAccount.success': 2 };
    await eventually(async () => {
      const page = (await ok('GET', '/webhooks/deliveries?limit=100')) as { items: { event: string }[] };
      const count = (name: string) => page.items.filter((item) => item.event === name).length;
      return Object.entries(expected).every(([name, least]) => count(name) >= least) ? true : undefined;
    }, 90_000);
    await recording.drain();

    const breaches: string[] = [];
    const eventTypes = new Set<string>();
    const commandTypes = new Map<string, Set<string>>();
    for (const { topic, message } of recording.recorded) {
      const value = JSON.parse(message.value?.toString('utf8') ?? 'null') as { type?: string };
      const kind = commandTopics.has(topic) ? 'command' : 'event';
      try {
        checkContract(topic, kind, value);
      } catch (error) {
        breaches.push(`${topic}@${message.offset}: ${(error as Error).message}`);
      }
      if (kind === 'event') eventTypes.add(String(value.type));
      else commandTypes.set(topic, new Set([...(commandTypes.get(topic) ?? []), String(value.type)]));
    }
    expect(breaches).toEqual([]);
    // The run is worth as much as what it covered: every contract a service produces was seen.
    const produced = Object.keys(eventContracts).filter((type) => !consumedOnly.has(type));
    expect(produced.filter((type) => !eventTypes.has(type))).toEqual([]);
    for (const [topic, contracts] of Object.entries(commandContracts)) {
      expect([topic, Object.keys(contracts).filter((type) => !commandTypes.get(topic)?.has(type))]).toEqual([
        topic,
        [],
      ]);
    }
  });
});
