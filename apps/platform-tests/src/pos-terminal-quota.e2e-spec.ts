import { randomBytes } from 'node:crypto';

import { encryptPosPayload } from '@payments/platform-crypto';
import { eventually, samplePosPayload } from '@payments/testing';

import { appPorts, npmRun, useApps } from './apps';
import { createPartner, Envelope, PartnerCredentials } from './partners';

jest.setTimeout(180_000);

const windowSeconds = 600;
const terminalQuota = 20;
const failureQuota = 30;

interface Answer {
  status: number;
  headers: Headers;
  body: Envelope;
}

/** A submission naming `serialNumber`, sent through the loopback proxy on behalf of `address`. */
async function submit(serialNumber: string, data: string, address: string): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${appPorts['pos-ingest']}/pos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ serialNumber, data }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
}

/** An address no other run of this suite uses within a window (documentation prefix 2001:db8::/32). */
const freshAddress = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;
/** What someone who read the serial off the device can send: anything but data under its key. */
const junk = () => randomBytes(96).toString('base64');

describe("a terminal's quota, spent only by the terminal", () => {
  useApps(['checkout-gateway', 'pos-ingest'], {
    'pos-ingest': {
      RATE_LIMIT_TERMINAL: `${terminalQuota}/${windowSeconds}s`,
      RATE_LIMIT_POS_FAILURES: `${failureQuota}/${windowSeconds}s`,
    },
  });
  let partner: PartnerCredentials;
  const tillAddress = freshAddress();

  const registered = async () => {
    const serial = `SN-QUOTA-${Date.now()}-${randomBytes(3).toString('hex')}`;
    // Onboarding reaches pos-ingest over Kafka: register once it has.
    await eventually(
      async () =>
        npmRun('terminal:register', ['--business', partner.businessId, '--serial', serial]).status === 0
          ? true
          : undefined,
      30_000,
    );
    return serial;
  };
  const genuine = (serial: string) =>
    submit(serial, encryptPosPayload(samplePosPayload(), partner.posEncryptionKey), tillAddress);

  beforeAll(() => {
    partner = createPartner('Terminal Quota Partner');
  });

  it("accepts the terminal's own submission after more junk naming its serial than its quota", async () => {
    const serial = await registered();
    // From many addresses at once, as a botnet sends: no per-address limit holds them back.
    const flood = await Promise.all(
      Array.from({ length: 2 * terminalQuota }, () => submit(serial, junk(), freshAddress())),
    );
    for (const answer of flood) {
      expect([answer.status, answer.body.data]).toEqual([400, { code: 'INVALID_PAYLOAD' }]);
    }

    const accepted = await genuine(serial);
    expect([accepted.status, accepted.body.data.transactionStatus]).toEqual([200, 'PROCESSING']);
    expect(accepted.headers.get('ratelimit')).toMatch(new RegExp(`^"terminal";r=${terminalQuota - 1};t=\\d+$`));
  });

  it('refuses an address over its quota of failures, and not the terminal sending from its own', async () => {
    const serial = await registered();
    const attacker = freshAddress();
    const flood = await Promise.all(Array.from({ length: failureQuota + 10 }, () => submit(serial, junk(), attacker)));
    const statuses = flood.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(failureQuota);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const refused = flood.find((answer) => answer.status === 429)!;
    expect(refused.body.data).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-policy')).toBe(`"pos-failures";q=${failureQuota};w=${windowSeconds}`);
    // Refused before it is looked up or decrypted: a serial that is registered or not, the same.
    expect((await submit('SN-NOT-REGISTERED', junk(), attacker)).status).toBe(429);

    const accepted = await genuine(serial);
    expect(accepted.status).toBe(200);
  });

  it('answers an unregistered serial number exactly as junk naming a registered one', async () => {
    const serial = await registered();
    const unregistered = await submit(`${serial}-UNKNOWN`, junk(), freshAddress());
    const registeredJunk = await submit(serial, junk(), freshAddress());
    expect([unregistered.status, unregistered.body]).toEqual([registeredJunk.status, registeredJunk.body]);
    expect(unregistered.headers.get('ratelimit')).toBe(registeredJunk.headers.get('ratelimit'));
  });
});
