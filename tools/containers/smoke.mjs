// A partner's first day, driven through whichever deployment is running: the checks that
// `npm run containers` counts, and the smoke flows each deployment shape must pass.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';

import { log, root } from '../lib.mjs';
import { podman } from './podman.mjs';

export const checks = { passed: 0, failed: 0 };

export function check(name, ok, detail = '') {
  if (ok) checks.passed += 1;
  else checks.failed += 1;
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? `: ${detail}` : ''}`);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the first value `probe` returns other than undefined, or undefined after the timeout. */
export async function eventually(probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) return undefined;
    await sleep(300);
  }
}

/** Resolves with seconds until `url` answers 200, or rejects after the timeout. */
export async function untilReady(url, timeoutMs = 90_000) {
  const started = Date.now();
  const ready = await eventually(
    () =>
      fetch(url, { signal: AbortSignal.timeout(2000) }).then(
        (response) => (response.status === 200 ? true : undefined),
        () => undefined,
      ),
    timeoutMs,
  );
  if (!ready) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
  return (Date.now() - started) / 1000;
}

/**
 * A webhook receiver on this machine that records every request. It listens on every address:
 * containers on the host's network reach it on 127.0.0.1, containers on a bridge network
 * through podman's host.containers.internal.
 */
export async function startReceiver() {
  const received = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: JSON.parse(body) });
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    urlFrom: (host) => `http://${host}:${server.address().port}/webhooks`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A shell script that lists what a container carries: the apps under /app/dist/apps (`app <name>`)
 * and anything of the development card host (`card-host <path>`): jPOS's jars, the host's classes
 * and its script. jPOS is AGPL: the host runs in a container of its own, and no platform image
 * carries any of it (deploy/card-host/README.md).
 */
export const carriedScript = [
  'ls /app/dist/apps 2>/dev/null | sed "s/^/app /"',
  'find / -xdev \\( -iname "jpos*.jar" -o -path "*/ng/payments/cardhost" -o -name card-host.sh \\) -print 2>/dev/null | sed "s/^/card-host /"',
  'true',
].join('; ');

/** What `carriedScript` printed: the apps, and the card host's files. */
export function carried(stdout) {
  const lines = stdout.trim().split('\n').filter(Boolean);
  const of = (prefix) => lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
  return {
    apps: of('app '),
    cardHost: of('card-host '),
    other: lines.filter((line) => !/^(app|card-host) /.test(line)),
  };
}

/**
 * The development card host runs in a container of its own, which carries jPOS and no app, and
 * each app's container carries its app and nothing of the host. `appContainers`: app to container.
 */
export function checkCardHostApart(label, hostContainer, appContainers) {
  const inside = (container) => carried(podman(['exec', container, 'sh', '-c', carriedScript]).stdout);
  const host = inside(hostContainer);
  check(
    `${label}: the card host runs in a container of its own, with jPOS and no app`,
    host.apps.length === 0 && host.cardHost.some((path) => /\/jpos-[^/]*\.jar$/.test(path)),
    JSON.stringify(host),
  );
  for (const [app, container] of Object.entries(appContainers)) {
    const found = inside(container);
    check(
      `${label}: ${app}'s container carries its app and nothing of the card host`,
      found.apps.length === 1 && found.apps[0] === app && found.cardHost.length === 0,
      JSON.stringify(found),
    );
  }
}

/** Approved purchases the development card host booked today (its settlement date, Lagos: UTC+1 all year). */
async function hostPurchases(cardHostUrl) {
  const date = new Date(Date.now() + 3_600_000).toISOString().slice(5, 10).replace('-', '');
  const response = await fetch(`${cardHostUrl}/totals?date=${date}`, { signal: AbortSignal.timeout(5000) });
  if (response.status !== 200) throw new Error(`the card host's /totals answered ${response.status}`);
  return (await response.json()).purchaseCount;
}

/** The JSON object an operator command printed with --json: its last line that is one. */
export function jsonOutput(stdout) {
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((candidate) => candidate.trimStart().startsWith('{'));
  if (!line) throw new Error(`no JSON in the command's output:\n${stdout.slice(-2000)}`);
  return JSON.parse(line);
}

/**
 * The partner's smoke through one running deployment: a partner created with the operator
 * command, an outlet, a checkout paid by card, a terminal registered and a POS submission
 * accepted, and each of their webhooks received with a valid signature.
 *
 * `operator(app, command, args)` runs an operator command as that deployment documents it and
 * returns its standard output; `webhookUrl` is the receiver as the apps reach it; `cardHostUrl`
 * the control API of the development card host card-processor authorises cards with there.
 */
export async function partnerSmoke({ label, gatewayUrl, posUrl, operator, receiver, webhookUrl, cardHostUrl }) {
  const partner = jsonOutput(
    operator('checkout-gateway', 'partner-create', [
      '--name',
      `${label} Smoke Ltd`,
      '--webhook-url',
      webhookUrl,
      '--json',
    ]),
  );
  check(`${label}: partner created with the operator command`, typeof partner.apiKey === 'string');
  const headers = {
    'x-api-key': partner.apiKey,
    'x-api-secret': partner.apiSecret,
    'content-type': 'application/json',
  };
  const call = async (method, path, body, extra = {}) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { ...headers, ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  // Onboarding reaches the other apps over Kafka: the outlet may wait for it.
  const outlet = await eventually(async () => {
    const answer = await call(
      'POST',
      '/outlets',
      { accountName: `${label} Shop` },
      { 'idempotency-key': 'smoke-outlet' },
    );
    return answer.status === 200 ? answer.body.data : undefined;
  });
  check(`${label}: outlet created through the gateway`, outlet?.outletId !== undefined);

  const created = await call('POST', '/payin/charge/requests', {
    amount: '250000',
    accountName: `${label} Shop`,
    paymentMethod: ['card'],
  });
  const reference = created.body.data?.reference;
  const purchasesBefore = await hostPurchases(cardHostUrl);
  const paid = await call('POST', `/checkout/${reference}/card-payment`, {
    cardNumber: '5060990000000000019',
    expiryDate: '12/30',
    cvv: '123',
  });
  check(
    `${label}: checkout paid by card`,
    paid.status === 200 && paid.body.data?.transactionStatus === 'SUCCESS',
    JSON.stringify(paid.body),
  );
  // Approved by this deployment's own card host, and not by another on this machine.
  const purchasesAfter = await hostPurchases(cardHostUrl);
  check(
    `${label}: the card payment was approved by the deployment's card host`,
    purchasesAfter === purchasesBefore + 1,
    `the host's approved purchases went from ${purchasesBefore} to ${purchasesAfter}`,
  );

  const serial = `SN-SMOKE-${randomUUID().slice(0, 8)}`;
  const registered = await eventually(() => {
    try {
      return jsonOutput(
        operator('pos-ingest', 'terminal-register', [
          '--business',
          partner.businessId,
          '--serial',
          serial,
          '--outlet',
          outlet?.outletId,
          '--json',
        ]),
      );
    } catch {
      return undefined; // the partner's outlet reaches pos-ingest over Kafka
    }
  });
  check(`${label}: terminal registered with the operator command`, registered !== undefined);
  const { encryptPosPayload } = await import(join(root, 'dist/libs/platform/crypto/src/index.js'));
  const payload = {
    accountType: 'savings',
    amount: '120000',
    cardExpiryDate: '2812',
    iccData: `9F2608${randomBytes(8).toString('hex').toUpperCase()}`,
    pan: '5061460410120223210',
    pinBlock: 'null',
    sequenceNumber: '000001',
    cardHolderName: 'SANDBOX CARDHOLDER',
    aid: 'A0000003710001',
    track2Data: '5061460410120223210D28121010000000000000',
    institutionCode: '627629',
  };
  const pos = await fetch(`${posUrl}/pos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ serialNumber: serial, data: encryptPosPayload(payload, partner.posEncryptionKey) }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));
  check(
    `${label}: POS submission accepted`,
    pos.status === 200 && typeof pos.body.data?.reference === 'string',
    JSON.stringify(pos.body),
  );

  const eventFor = (name, matches) =>
    eventually(() => receiver.received.find(({ body }) => body.event === name && matches(body.eventData)));
  const events = {
    'outlet.created': await eventFor('outlet.created', (data) => data.outletId === outlet?.outletId),
    'checkout.success': await eventFor(
      'checkout.success',
      (data) => data.transactionReference === reference || data.reference === reference,
    ),
    'fundAccount.success (POS)': await eventFor(
      'fundAccount.success',
      (data) => data.transactionReference === pos.body.data?.reference,
    ),
  };
  for (const [name, delivery] of Object.entries(events)) {
    const signed =
      delivery &&
      createHmac('sha256', partner.apiKey).update(JSON.stringify(delivery.body.eventData)).digest('hex') ===
        delivery.body.signature;
    check(
      `${label}: webhook ${name} received with a valid signature`,
      Boolean(signed),
      delivery ? 'signature does not verify' : 'not received within 60 s',
    );
  }
}
