import { PartnerCredentials, PosPayload } from '@payments/contracts';
import { encryptPosPayload } from '@payments/platform-crypto';
import { eventually, samplePosPayload } from '@payments/testing';

import { appPorts, npmRun, npmRunAsync } from './apps';

/** What a partner does, done as a partner does it: onboarding through the CLI, calls to the gateway, checkouts, terminals. */
export type { PartnerCredentials };

/**
 * Runs `npm run partner:create -- ... --json` against the test database; returns its JSON. It
 * does not wait for onboarding (suites run only the apps they need, so not every service would
 * confirm): pass `--wait-seconds N` in `extra` to wait as an operator's run does.
 */
export function createPartner(name: string, extra: string[] = []): PartnerCredentials {
  const result = npmRun('partner:create', ['--name', name, '--json', '--wait-seconds', '0', ...extra]);
  if (result.status !== 0) throw new Error(`partner:create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as PartnerCredentials;
}

export interface Envelope<T = Record<string, unknown>> {
  status: boolean;
  statusCode: number;
  message: string;
  data: T;
}

/** A gateway call as a partner makes it (no keys when `partner` is null); the envelope, parsed. */
export async function callGateway<T = Record<string, unknown>>(
  partner: PartnerCredentials | null,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: Envelope<T>; text: string; headers: Headers }> {
  const headers: Record<string, string> = partner
    ? { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, ...extraHeaders }
    : { ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`http://127.0.0.1:${appPorts['checkout-gateway']}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Envelope<T>, text, headers: response.headers };
}

/** Registers a terminal once the business's onboarding and its outlet have reached pos-ingest over Kafka. */
export async function registerTerminal(businessId: string, serial: string, outletId: string): Promise<void> {
  await eventually(
    async () =>
      (await npmRunAsync('terminal:register', ['--business', businessId, '--serial', serial, '--outlet', outletId]))
        .status === 0
        ? true
        : undefined,
    30_000,
  );
}

/** Creates a checkout for `amount` kobo payable by `paymentMethod`; its reference. */
export async function createCheckout(
  partner: PartnerCredentials,
  paymentMethod: string[],
  amount = '250000',
  accountName = 'Test Shop',
): Promise<string> {
  const created = await callGateway<{ reference: string }>(partner, 'POST', '/payin/charge/requests', {
    amount,
    accountName,
    paymentMethod,
  });
  if (created.status !== 200) throw new Error(`checkout not created: ${created.text}`);
  return created.body.data.reference;
}

/** The sandbox 3-D Secure page a card payment sent the customer to, reached on this machine. */
export function bankPage(redirectUrl: string): string {
  const { pathname, search } = new URL(redirectUrl);
  return `http://127.0.0.1:${appPorts['checkout-gateway']}${pathname}${search}`;
}

/** The customer's decision on that page; the bank answers 303, back to the hosted page. */
export function decideOnBankPage(redirectUrl: string, decision: 'approve' | 'decline'): Promise<Response> {
  return fetch(bankPage(redirectUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
}

/** A terminal's submission to pos-ingest: `payload` sealed under the business's POS key. */
export function submitPos(
  serialNumber: string,
  posEncryptionKey: string,
  payload: PosPayload = samplePosPayload(),
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`http://127.0.0.1:${appPorts['pos-ingest']}/pos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ serialNumber, data: encryptPosPayload(payload, posEncryptionKey) }),
  });
}

/**
 * A partner whose onboarding has reached outlet-service over Kafka: its checkouts get accounts
 * and its money commands find its wallets.
 */
export async function onboardedPartner(name: string, extra: string[] = []): Promise<PartnerCredentials> {
  const partner = createPartner(name, extra);
  const probe = await createCheckout(partner, ['pay-with-transfer'], '10000', 'Onboarding probe');
  await eventually(
    async () =>
      (await callGateway(partner, 'POST', `/checkout/${probe}/pay-with-transfer`)).status === 200 ? true : undefined,
    30_000,
  );
  return partner;
}
