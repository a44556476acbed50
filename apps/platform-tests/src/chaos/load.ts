import { randomInt, randomUUID } from 'node:crypto';

import { encryptPosPayload } from '@payments/platform-crypto';
import { samplePosPayload } from '@payments/testing';

import { AppName } from '../apps';
import { ChaosPlatform } from './chaos-platform';

export interface Wallet {
  walletId: string;
  accountNumber: string;
}

export interface Partner {
  name: string;
  businessId: string;
  apiKey: string;
  apiSecret: string;
  posEncryptionKey: string;
  serial: string;
  outlets: { outletId: string; collectionWallet: Wallet; depositWallet: Wallet }[];
}

/** One HTTP attempt: its answer's status, or null when no answer came (connection refused, timeout). */
export interface Attempt {
  at: number;
  /** When its answer (or its failure) came. */
  answeredAt: number;
  operation: string;
  status: number | null;
}

/** What a 200 (or a refusal) promised: checked against the platform's own records afterwards. */
export interface Promised {
  kind: 'outlet' | 'funding' | 'internal_transfer' | 'refused_transfer' | 'payout' | 'pos' | 'checkout_paid';
  businessId: string;
  reference: string;
}

interface Answer {
  status: number;
  body: { status?: boolean; data?: Record<string, unknown> & { code?: string } };
}

/** The sandbox's test cards that a customer can complete here (every step but 3-D Secure's bank page). */
const cards = [
  '5060990000000000019',
  '5060990000000000027',
  '5060990000000000035',
  '4000000000001000',
  '5060990000000000068',
  '5060990000000000076',
];
export const cardNumbersUsed = [...cards, '5061460410120223210'];
const stepAnswers: Record<string, Record<string, unknown>> = {
  pin: { pin: '1234' },
  otp: { otp: '123456' },
  birthday: { birthday: '1990-05-17' },
  phone: { phone: '08031234567' },
  avs: { address: { line1: '1 Allen Avenue', city: 'Ikeja', state: 'Lagos', postalCode: '100001', country: 'NG' } },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: T[]): T => items[randomInt(items.length)];

/**
 * Drives every flow at a steady mixed rate, as partners, customers and terminals would. A
 * request answered 503 or not at all is retried as it was (same keys, same references) for up to
 * a minute: that is what the platform tells callers to do, so it must be safe.
 */
export class Load {
  readonly attempts: Attempt[] = [];
  readonly promised: Promised[] = [];
  /** Every money command sent, whatever its answer: none may take effect twice. */
  readonly attempted: Promised[] = [];
  readonly checkouts: { businessId: string; reference: string }[] = [];
  private stopping = false;

  constructor(
    private readonly platform: ChaosPlatform,
    private readonly partners: Partner[],
  ) {}

  /** Runs `workers` loops that together start about `perSecond` flows a second until stop(). */
  async run(workers: number, perSecond: number): Promise<void> {
    const spacing = (workers * 1000) / perSecond;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (!this.stopping) {
          const started = Date.now();
          await this.flow().catch(() => undefined); // a flow given up on is judged by the audit
          await sleep(Math.max(0, spacing - (Date.now() - started)));
        }
      }),
    );
  }

  stop(): void {
    this.stopping = true;
  }

  private flow(): Promise<void> {
    const partner = pick(this.partners);
    const flows: [number, () => Promise<void>][] = [
      [1, () => this.createOutlet(partner)],
      [3, () => this.credit(partner)],
      [3, () => this.transfer(partner)],
      [1, () => this.payout(partner)],
      [3, () => this.cardCheckout(partner)],
      [1, () => this.transferCheckout(partner)],
      [1, () => this.qrCheckout(partner)],
      [3, () => this.posSubmission(partner)],
    ];
    let draw = randomInt(flows.reduce((sum, [weight]) => sum + weight, 0));
    for (const [weight, flow] of flows) {
      if (draw < weight) return flow();
      draw -= weight;
    }
    return Promise.resolve();
  }

  async createOutlet(partner: Partner): Promise<void> {
    const name = `Chaos Outlet ${randomUUID()}`;
    this.attempted.push({ kind: 'outlet', businessId: partner.businessId, reference: name });
    const answer = await this.gateway(
      'create outlet',
      partner,
      'POST',
      '/outlets',
      { accountName: name },
      { 'idempotency-key': randomUUID() },
    );
    if (answer?.status !== 200) return;
    partner.outlets.push(answer.body.data as unknown as Partner['outlets'][number]);
    this.promised.push({ kind: 'outlet', businessId: partner.businessId, reference: name });
  }

  private async credit(partner: Partner): Promise<void> {
    const sessionId = randomUUID();
    const wallet = pick([pick(partner.outlets).collectionWallet, pick(partner.outlets).depositWallet]);
    this.attempted.push({ kind: 'funding', businessId: partner.businessId, reference: sessionId });
    const answer = await this.gateway(
      'sandbox credit',
      partner,
      'POST',
      `/sandbox/virtual-accounts/${wallet.accountNumber}/credit`,
      { amount: '50000', sessionId },
    );
    if (answer?.status === 200) {
      this.promised.push({ kind: 'funding', businessId: partner.businessId, reference: sessionId });
    }
  }

  private async transfer(partner: Partner): Promise<void> {
    const [from, to] = [pick(partner.outlets), pick(partner.outlets)];
    const reference = `chaos-${randomUUID()}`;
    const body = {
      reference,
      amount: String(randomInt(100, 5000)),
      sourceWalletId: from.collectionWallet.walletId,
      destinationWalletId: to.depositWallet.walletId,
    };
    this.attempted.push({ kind: 'internal_transfer', businessId: partner.businessId, reference });
    const answer = await this.gateway('internal transfer', partner, 'POST', '/transfer/internal', body);
    if (answer?.status === 200) {
      this.promised.push({ kind: 'internal_transfer', businessId: partner.businessId, reference });
    }
    if (answer?.status === 422 && answer.body.data?.code === 'INSUFFICIENT_FUNDS') {
      this.promised.push({ kind: 'refused_transfer', businessId: partner.businessId, reference });
    }
  }

  private async payout(partner: Partner): Promise<void> {
    const reference = `payout-${randomUUID()}`;
    const body = {
      reference,
      amount: '500',
      sourceWalletId: pick(partner.outlets).depositWallet.walletId,
      bankCode: '058',
      accountNumber: '0690000031',
      accountName: 'Bola Ade',
    };
    this.attempted.push({ kind: 'payout', businessId: partner.businessId, reference });
    const answer = await this.gateway('payout', partner, 'POST', '/transfer/bank', body);
    if (answer?.status === 200) this.promised.push({ kind: 'payout', businessId: partner.businessId, reference });
  }

  private async createCheckout(partner: Partner, methods: string[]): Promise<string | null> {
    const body = { amount: String(randomInt(10_000, 500_000)), accountName: 'Chaos Shop', paymentMethod: methods };
    const answer = await this.gateway('create checkout', partner, 'POST', '/payin/charge/requests', body, {
      'idempotency-key': randomUUID(),
    });
    const reference = answer?.status === 200 ? (answer.body.data?.reference as string) : null;
    if (reference) this.checkouts.push({ businessId: partner.businessId, reference });
    return reference;
  }

  private async cardCheckout(partner: Partner): Promise<void> {
    const reference = await this.createCheckout(partner, ['card']);
    if (!reference) return;
    let answer = await this.gateway('card payment', partner, 'POST', `/checkout/${reference}/card-payment`, {
      cardNumber: pick(cards),
      expiryDate: '12/30',
      cvv: '123',
    });
    for (let step = 0; step < 4 && answer?.status === 200; step += 1) {
      const next = answer.body.data?.nextAction as string;
      if (!stepAnswers[next]) break;
      answer = await this.gateway(
        'card authorization',
        partner,
        'POST',
        `/checkout/${reference}/card-authorization`,
        stepAnswers[next],
      );
    }
    if (answer?.status === 200 && answer.body.data?.transactionStatus === 'SUCCESS') {
      this.promised.push({ kind: 'checkout_paid', businessId: partner.businessId, reference });
    }
  }

  private async transferCheckout(partner: Partner): Promise<void> {
    const reference = await this.createCheckout(partner, ['pay-with-transfer']);
    if (!reference) return;
    const account = await this.gateway('transfer account', partner, 'POST', `/checkout/${reference}/pay-with-transfer`);
    if (account?.status !== 200) return;
    const { accountNumber, amount } = account.body.data as { accountNumber: string; amount: string };
    const paid = await this.gateway(
      'transfer to checkout',
      partner,
      'POST',
      `/sandbox/virtual-accounts/${accountNumber}/credit`,
      { amount, sessionId: randomUUID() },
    );
    if (paid?.status === 200) this.promised.push({ kind: 'checkout_paid', businessId: partner.businessId, reference });
  }

  private async qrCheckout(partner: Partner): Promise<void> {
    const reference = await this.createCheckout(partner, ['qr-wallet']);
    if (!reference) return;
    const qr = await this.gateway('checkout QR', partner, 'POST', `/checkout/${reference}/qr`);
    if (qr?.status !== 200) return;
    const paid = await this.gateway('QR payment', partner, 'POST', '/sandbox/qr-wallet/pay', {
      qrPayload: qr.body.data?.qrPayload,
    });
    if (paid?.status === 200) this.promised.push({ kind: 'checkout_paid', businessId: partner.businessId, reference });
  }

  private async posSubmission(partner: Partner): Promise<void> {
    const payload = samplePosPayload({ amount: String(randomInt(1_000, 100_000)) });
    const body = { serialNumber: partner.serial, data: encryptPosPayload(payload, partner.posEncryptionKey) };
    const answer = await this.call('POS submission', 'pos-ingest', 'POST', '/pos', body, {});
    if (answer?.status === 200) {
      this.promised.push({
        kind: 'pos',
        businessId: partner.businessId,
        reference: answer.body.data?.reference as string,
      });
    }
  }

  private gateway(
    operation: string,
    partner: Partner,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer | null> {
    return this.call(operation, 'checkout-gateway', method, path, body, {
      'x-api-key': partner.apiKey,
      'x-api-secret': partner.apiSecret,
      ...headers,
    });
  }

  /** One request, retried unchanged after a 503 or no answer for up to a minute; null if it never got another answer. */
  private async call(
    operation: string,
    app: AppName,
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<Answer | null> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const at = Date.now();
      const answer = await fetch(`${this.platform.url(app)}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      }).then(
        async (response) => ({
          status: response.status,
          body: (await response.json().catch(() => ({}))) as Answer['body'],
        }),
        () => null,
      );
      this.attempts.push({ at, answeredAt: Date.now(), operation, status: answer?.status ?? null });
      if (answer && answer.status !== 503) return answer;
      if (Date.now() > deadline || this.stopping) return null;
      await sleep(1000);
    }
  }
}
