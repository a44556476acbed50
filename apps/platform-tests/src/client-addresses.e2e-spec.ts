import { randomInt } from 'node:crypto';

import { isLuhnValid } from '@payments/contracts';

import { appPorts, exitWithin, spawnApp, stopApps, useApps, waitForReady } from './apps';
import { createCheckout, onboardedPartner } from './partners';

jest.setTimeout(240_000);

const gateway = `http://127.0.0.1:${appPorts['checkout-gateway']}`;
const windowSeconds = 3600;
const pageQuota = 4;
const cardsPerAddress = 3;

/** A /64 no earlier run counted: `2001:db8:<random>:<random>`. */
const freshNetwork = () => `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;

/** An address of `network` (a /64 prefix) with a random interface id. */
const addressIn = (network: string) =>
  `${network}:${Array.from({ length: 4 }, () => randomInt(0x10000).toString(16)).join(':')}`;

/** A card number no test card uses, with its check digit. */
function freshCardNumber(): string {
  const body = `5399${String(randomInt(0, 1e11)).padStart(11, '0')}`;
  return [...'0123456789'].map((digit) => `${body}${digit}`).find(isLuhnValid)!;
}

/** Waits, if need be, for a window with at least 60 s left, so one run of requests sees one window. */
async function freshWindow(): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < 60_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** A hosted-page request, as the ingress forwards it for a customer at `address`. */
async function visit(address: string, port: number = appPorts['checkout-gateway']) {
  const response = await fetch(`http://127.0.0.1:${port}/checkout/session/NO-SUCH-CHECKOUT`, {
    headers: { 'x-forwarded-for': address },
  });
  const body = (await response.json()) as { data: { code?: string } };
  return { status: response.status, code: body.data.code, rateLimit: response.headers.get('ratelimit') };
}

/** A card payment from the hosted page, as the ingress forwards it for a payer at `address`. */
async function payOnHostedPage(reference: string, address: string) {
  const response = await fetch(`${gateway}/checkout/session/${reference}/card-payment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ cardNumber: freshCardNumber(), expiryDate: '12/30', cvv: '123' }),
  });
  const body = (await response.json()) as { data: { code?: string; transactionStatus?: string } };
  return { status: response.status, code: body.data.code, transactionStatus: body.data.transactionStatus };
}

describe('client addresses behind the ingress', () => {
  useApps(['checkout-gateway', 'card-processor', 'outlet-service'], {
    'checkout-gateway': {
      RATE_LIMIT_HOSTED_PAGE: `${pageQuota}/${windowSeconds}s`,
      CARD_TESTING_PER_ADDRESS: `${cardsPerAddress}/${windowSeconds}s`,
    },
  });

  it('holds every IPv6 address of one /64 to one hosted-page quota, and no other /64 to it', async () => {
    await freshWindow();
    const network = freshNetwork();
    const answers = await Promise.all(Array.from({ length: pageQuota + 3 }, () => visit(addressIn(network))));
    expect(answers.filter((answer) => answer.status === 404)).toHaveLength(pageQuota);
    expect(answers.filter((answer) => answer.status === 429 && answer.code === 'RATE_LIMITED')).toHaveLength(3);

    const neighbour = await visit(addressIn(freshNetwork()));
    expect(neighbour.status).toBe(404);
    expect(neighbour.rateLimit).toMatch(new RegExp(`^"hosted-page";r=${pageQuota - 1};t=\\d+$`));
  });

  it("counts the cards a payer's /64 tries as one payer's", async () => {
    const partner = await onboardedPartner('Rotating Payer Shop');
    const references = await Promise.all(
      Array.from({ length: cardsPerAddress + 2 }, () => createCheckout(partner, ['card'])),
    );
    const network = freshNetwork();
    const attempts = [];
    for (const reference of references.slice(0, cardsPerAddress + 1)) {
      attempts.push(await payOnHostedPage(reference, addressIn(network)));
    }
    expect(attempts.slice(0, cardsPerAddress).map((attempt) => attempt.transactionStatus)).toEqual(
      Array.from({ length: cardsPerAddress }, () => 'SUCCESS'),
    );
    expect(attempts[cardsPerAddress]).toMatchObject({ status: 429, code: 'CARD_TESTING_SUSPECTED' });
    expect(await payOnHostedPage(references[cardsPerAddress + 1], addressIn(freshNetwork()))).toMatchObject({
      status: 200,
      transactionStatus: 'SUCCESS',
    });
  });
});

describe('TRUSTED_PROXIES in production', () => {
  const production = { NODE_ENV: 'production', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'false' };

  it('stops an app that takes requests without it, naming it', async () => {
    const app = spawnApp('checkout-gateway', { ...production, TRUSTED_PROXIES: '', PORT: '13020' });
    const exit = await exitWithin(app.exited, 30_000);
    expect(exit.code).toBe(78);
    expect(app.output()).toContain('TRUSTED_PROXIES: is required in production');
  });

  it('starts with none, and then believes no X-Forwarded-For', async () => {
    const port = 13021;
    const app = spawnApp('checkout-gateway', { ...production, TRUSTED_PROXIES: 'none', PORT: String(port) });
    try {
      await waitForReady(port, app);
      await freshWindow();
      // Each claims an address of its own; both come from this machine, which is what is counted.
      const first = await visit(addressIn(freshNetwork()), port);
      const second = await visit(addressIn(freshNetwork()), port);
      const left = (answer: { rateLimit: string | null }) => Number(/;r=(\d+);/.exec(answer.rateLimit ?? '')?.[1]);
      expect(left(second)).toBe(left(first) - 1);
    } finally {
      await stopApps([app]);
    }
  });
});
