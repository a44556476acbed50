import { randomBytes } from 'node:crypto';

import { encryptPosPayload, Sealer } from '@payments/platform-crypto';
import { apiError } from '@payments/platform-envelope';
import { KafkaProducer } from '@payments/platform-kafka';
import { Metrics } from '@payments/platform-metrics';
import { HeaderSink, RateLimitPolicy, RateLimits } from '@payments/platform-rate-limit';
import { samplePosPayload } from '@payments/testing';

import { Env } from '../config/env';
import { Terminal, TerminalsService } from '../terminals/terminals.service';
import { PosService } from './pos.service';
import { PosMetrics } from './pos-metrics';

const terminal: Terminal = {
  serialNumber: 'SN-PRINTED-ON-THE-DEVICE',
  businessId: 'BUS-1',
  outletId: null,
  mode: 'test',
  posKey: 'AbCdEfGh12345678',
  pinKeyUnderLmk: null,
};
const liveTerminal: Terminal = { ...terminal, serialNumber: 'SN-LIVE', businessId: 'BUS-2', mode: 'live' };
const pinTerminal: Terminal = { ...terminal, serialNumber: 'SN-PIN', pinKeyUnderLmk: 'lmk1.d3JhcHBlZC1rZXk' };
const [attacker, till] = ['203.0.113.66', '198.51.100.7'];
const junk = () => randomBytes(64).toString('base64');
const genuine = (key = terminal.posKey) => encryptPosPayload(samplePosPayload(), key);

/** Fixed windows that never end: what each policy and key has been charged, in order. */
class CountingRateLimits {
  readonly charged: string[] = [];

  async admit(_reply: HeaderSink, policy: RateLimitPolicy | undefined, key: string): Promise<void> {
    if (!policy) return;
    this.charged.push(`${policy.name}:${key}`);
    if (this.charged.filter((id) => id === `${policy.name}:${key}`).length > policy.quota) {
      throw apiError('RATE_LIMITED', 'Too many requests', { retryAfterSeconds: 30 });
    }
  }

  of(policy: string): string[] {
    return this.charged.filter((id) => id.startsWith(`${policy}:`));
  }
}

/** The service over fakes: a terminal quota of 3 and 5 failures per address. */
function posService() {
  const env = Object.assign(new Env(), {
    POS_REFERENCE_KEY: randomBytes(32).toString('base64'),
    RATE_LIMIT_TERMINAL: '3/60s',
    RATE_LIMIT_POS_FAILURES: '5/60s',
  });
  const registered = new Map([terminal, liveTerminal, pinTerminal].map((known) => [known.serialNumber, known]));
  const terminals = { find: jest.fn(async (serial: string) => registered.get(serial) ?? null) };
  const producer = { send: jest.fn(async () => undefined) } as unknown as KafkaProducer;
  const rateLimits = new CountingRateLimits();
  const limits = rateLimits as unknown as RateLimits;
  const metrics = new Metrics('pos-ingest');
  const cardSealer = new Sealer(randomBytes(32).toString('base64'));
  const service = new PosService(
    producer,
    cardSealer,
    terminals as unknown as TerminalsService,
    env,
    new PosMetrics(metrics, env),
    limits,
  );
  const submit = (serialNumber: string, data: string, address: string) =>
    service.submit({ serialNumber, data }, { header: () => undefined }, address).then(
      () => 'accepted',
      (error: { status: number; code: string; message: string }) => `${error.status} ${error.code}: ${error.message}`,
    );
  const decryptFailures = async () =>
    (await metrics.registry.getSingleMetric('pos_decrypt_failures_total')!.get()).values.reduce(
      (sum, { value }) => sum + value,
      0,
    );
  return { submit, rateLimits, terminals, decryptFailures, producer, cardSealer };
}

describe('POS submissions and the quotas they spend', () => {
  it("never charges the terminal's quota for junk naming its serial, so its own submission is accepted", async () => {
    const { submit, rateLimits } = posService();
    const answers = await Promise.all(Array.from({ length: 5 }, () => submit(terminal.serialNumber, junk(), attacker)));
    expect(new Set(answers)).toEqual(new Set([expect.stringMatching(/^400 INVALID_PAYLOAD/)]));
    expect(rateLimits.of('terminal')).toEqual([]);
    expect(rateLimits.of('pos-failures')).toEqual(Array(5).fill(`pos-failures:${attacker}`));

    expect(await submit(terminal.serialNumber, genuine(), till)).toBe('accepted');
    expect(rateLimits.of('terminal')).toEqual([`terminal:${terminal.serialNumber}`]);
  });

  it("charges the terminal's quota once its data decrypted, and refuses the terminal beyond it", async () => {
    const { submit, rateLimits } = posService();
    const answers = await Promise.all(Array.from({ length: 4 }, () => submit(terminal.serialNumber, genuine(), till)));
    expect(answers.sort()).toEqual(['429 RATE_LIMITED: Too many requests', 'accepted', 'accepted', 'accepted']);
    expect(rateLimits.of('pos-failures')).toEqual([]);
  });

  it('refuses what an address sends once it spent its failures, except what decrypts: terminals behind it go on', async () => {
    const { submit, rateLimits, decryptFailures } = posService();
    const flood = await Promise.all(Array.from({ length: 7 }, () => submit(terminal.serialNumber, junk(), attacker)));
    expect(flood.filter((answer) => answer.startsWith('400 INVALID_PAYLOAD'))).toHaveLength(5);
    expect(flood.filter((answer) => answer.startsWith('429 RATE_LIMITED'))).toHaveLength(2);
    expect(await decryptFailures()).toBe(7);

    expect(await submit(terminal.serialNumber, junk(), attacker)).toMatch(/^429 RATE_LIMITED/);
    expect(await submit('SN-GUESSED', junk(), attacker)).toMatch(/^429 RATE_LIMITED/);
    // A terminal sharing the address (a carrier's NAT) holds its key: it is accepted, and charged as a terminal.
    expect(await submit(terminal.serialNumber, genuine(), attacker)).toBe('accepted');
    expect(rateLimits.of('terminal')).toEqual([`terminal:${terminal.serialNumber}`]);
  });

  it('answers a serial number that is not registered exactly as data that does not decrypt, and counts both', async () => {
    const { submit, rateLimits } = posService();
    const unregistered = await submit('SN-NOT-REGISTERED', genuine(), attacker);
    const undecryptable = await submit(terminal.serialNumber, genuine('a-different-key!'), attacker);
    expect(unregistered).toBe(undecryptable);
    expect(unregistered).toMatch(/^400 INVALID_PAYLOAD/);
    expect(rateLimits.of('pos-failures')).toHaveLength(2);
  });

  it("tells that a terminal is live only to a sender holding the terminal's key", async () => {
    const { submit } = posService();
    expect(await submit(liveTerminal.serialNumber, junk(), attacker)).toMatch(/^400 INVALID_PAYLOAD/);
    expect(await submit(liveTerminal.serialNumber, genuine(), till)).toMatch(/^403 SANDBOX_ONLY/);
  });
});

describe('the card data a POS submission passes on', () => {
  const published = (producer: KafkaProducer) => {
    const [[, message]] = (producer.send as jest.Mock).mock.calls as [string, { value: string }][];
    return JSON.parse(message.value) as { payload: { reference: string; sealedCard: string } };
  };

  it('carries the terminal’s wrapped PIN key inside the sealed card, and nowhere else', async () => {
    const { submit, producer, cardSealer } = posService();
    expect(await submit(pinTerminal.serialNumber, genuine(), till)).toBe('accepted');
    const { payload } = published(producer);
    expect(JSON.stringify(payload).replace(payload.sealedCard, '')).not.toContain(pinTerminal.pinKeyUnderLmk);
    expect(JSON.parse(cardSealer.open(payload.sealedCard, payload.reference))).toMatchObject({
      pinBlock: 'null',
      pinKeyUnderLmk: pinTerminal.pinKeyUnderLmk,
    });
  });

  it('carries no PIN key for a terminal that has none', async () => {
    const { submit, producer, cardSealer } = posService();
    expect(await submit(terminal.serialNumber, genuine(), till)).toBe('accepted');
    const { payload } = published(producer);
    expect(JSON.parse(cardSealer.open(payload.sealedCard, payload.reference))).not.toHaveProperty('pinKeyUnderLmk');
  });
});
