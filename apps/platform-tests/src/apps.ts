import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

import { PartnerCredentials, PosPayload } from '@payments/contracts';
import { encryptPosPayload } from '@payments/platform-crypto';
import { eventually, samplePosPayload, testEnvironment } from '@payments/testing';

export type { PartnerCredentials };

export const repoRoot = resolve(__dirname, '../../..');

/** Each app on a port away from the defaults, so a developer's `npm start` does not collide. */
export const appPorts = {
  'checkout-gateway': 13000,
  'card-processor': 13001,
  'pos-ingest': 13002,
  'outlet-service': 13003,
  'webhook-dispatcher': 13004,
} as const;

export type AppName = keyof typeof appPorts;

/** One data key for every process of a test run, as in a real deployment. */
export const sharedSecrets = {
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  CARD_DATA_KEY: randomBytes(32).toString('base64'),
  POS_REFERENCE_KEY: randomBytes(32).toString('base64'),
};

/** Runs `npm run partner:create -- ... --json` against the test database; returns its JSON. */
export function createPartner(name: string, extra: string[] = []): PartnerCredentials {
  const result = spawnSync('npm', ['run', 'partner:create', '--', '--name', name, '--json', ...extra], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnvironment(sharedSecrets) },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`partner:create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as PartnerCredentials;
}

/** `npm run <script> -- <args>` against the test database, with this run's shared secrets. */
export function npmRun(script: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', script, '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnvironment(sharedSecrets) },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
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
): Promise<{ status: number; body: Envelope<T>; text: string }> {
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
  return { status: response.status, body: JSON.parse(text) as Envelope<T>, text };
}

export interface RunningApp {
  name: AppName;
  process: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built app as production runs it: `node -r register-paths dist/.../main.js`. */
export function spawnApp(name: AppName, overrides: Record<string, string> = {}): RunningApp {
  const env = {
    ...process.env,
    ...testEnvironment({ PORT: String(appPorts[name]), LOG_LEVEL: 'info', ...sharedSecrets, ...overrides }),
  };
  const child = spawn(process.execPath, ['-r', './tools/runtime/register-paths.cjs', `dist/apps/${name}/src/main.js`], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return { name, process: child, output: () => output, exited };
}

/** Every app of the platform, in the order they are listed above. */
export const allApps = Object.keys(appPorts) as AppName[];

/**
 * Starts `names` as production runs them, each with the settings given for it (and those for
 * `every` app), and resolves once every one is ready. If one is not, all are killed and the
 * error carries what it printed.
 */
export async function startApps(names: AppName[], settings: AppSettings = {}): Promise<RunningApp[]> {
  const apps = names.map((name) => spawnApp(name, { ...settings.every, ...settings[name] }));
  try {
    await Promise.all(apps.map((app) => waitForReady(appPorts[app.name], app)));
    return apps;
  } catch (error) {
    for (const app of apps) app.process.kill('SIGKILL');
    throw error;
  }
}

type AppSettings = Partial<Record<AppName | 'every', Record<string, string>>>;

/**
 * For a suite: starts `names` before its tests (and before its own later beforeAll hooks) and
 * stops them after. `settings` may be a function, read when the apps start. Returns the running
 * apps, for tests that restart one.
 */
export function useApps(names: AppName[], settings: AppSettings | (() => AppSettings) = {}): RunningApp[] {
  const apps: RunningApp[] = [];
  beforeAll(async () => {
    apps.push(...(await startApps(names, typeof settings === 'function' ? settings() : settings)));
  });
  afterAll(() => stopApps(apps));
  return apps;
}

/** Waits for /health/ready; on failure the error carries what the app printed. */
export async function waitForReady(port: number, app?: RunningApp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `port ${port} not ready within ${timeoutMs} ms${app ? `; ${app.name} printed:\n${app.output().slice(-3000)}` : ''}`,
  );
}

/** Resolves with the exit, or rejects if the process outlives `ms`. */
export function exitWithin<T>(exited: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after the signal`)), ms);
  });
  return Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
}

/** Stops the apps as an orchestrator would (SIGTERM) and waits for each to exit. */
export async function stopApps(apps: RunningApp[]): Promise<void> {
  for (const app of apps) app.process.kill('SIGTERM');
  await Promise.all(apps.map((app) => app.exited));
}

/** Registers a terminal once the business's onboarding has reached pos-ingest over Kafka. */
export async function registerTerminal(businessId: string, serial: string, outletId: string): Promise<void> {
  await eventually(
    async () =>
      npmRun('terminal:register', ['--business', businessId, '--serial', serial, '--outlet', outletId]).status === 0
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

/** Waits until outlet-service knows the partner (onboarding travels over Kafka): its checkouts get accounts. */
export async function checkoutAccountsReady(partner: PartnerCredentials): Promise<void> {
  const probe = await createCheckout(partner, ['pay-with-transfer'], '10000', 'Onboarding probe');
  await eventually(
    async () =>
      (await callGateway(partner, 'POST', `/checkout/${probe}/pay-with-transfer`)).status === 200 ? true : undefined,
    30_000,
  );
}
