import { Topics } from '@payments/contracts';
import { eventually, KafkaCollector, testEnvironment } from '@payments/testing';
import { spawnSync } from 'node:child_process';
import { appPorts, createPartner, PartnerCredentials, repoRoot, RunningApp, sharedSecrets, spawnApp, waitForReady } from './apps';

jest.setTimeout(180_000);

const gateway = `http://127.0.0.1:${appPorts['checkout-gateway']}`;

function npmRun(script: string, args: string[]) {
  const result = spawnSync('npm', ['run', script, '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...testEnvironment(sharedSecrets) },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

describe('POS transactions from terminal to wallet', () => {
  const apps: RunningApp[] = [];
  let partner: PartnerCredentials;
  let outlet: { outletId: string; collectionWallet: { walletId: string } };
  let events: KafkaCollector;
  const serial = `SN-E2E-${Date.now()}`;

  const wallet = async () => {
    const response = await fetch(`${gateway}/outlets/${outlet.outletId}`, { headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret } });
    return ((await response.json()) as { data: { collectionWallet: { ledgerBalance: string } } }).data.collectionWallet;
  };
  const send = (args: string[]) => npmRun('pos:send', ['--serial', serial, '--key', partner.posEncryptionKey, '--url', `http://127.0.0.1:${appPorts['pos-ingest']}`, ...args]);
  const partnerEvent = (name: string, reference: string) =>
    eventually(
      () =>
        events.messages
          .map((message) => JSON.parse(message.value).payload as { event: string; eventData: Record<string, unknown> })
          .find((payload) => payload.event === name && payload.eventData.transactionReference === reference),
      60_000,
    );

  beforeAll(async () => {
    for (const name of ['checkout-gateway', 'pos-ingest', 'card-processor', 'outlet-service'] as const) apps.push(spawnApp(name));
    await Promise.all(apps.map((app) => waitForReady(appPorts[app.name], app)));
    events = await new KafkaCollector(testEnvironment().KAFKA_BROKERS!, Topics.partnerEvents.name).start();
    partner = createPartner('POS Partner');
    outlet = await eventually(async () => {
      const response = await fetch(`${gateway}/outlets`, {
        method: 'POST',
        headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' },
        body: JSON.stringify({ accountName: 'Shop with a terminal' }),
      });
      return response.status === 200 ? ((await response.json()) as { data: typeof outlet }).data : undefined;
    }, 30_000);
    // Onboarding reaches pos-ingest over Kafka too: register once it has.
    await eventually(async () => (npmRun('terminal:register', ['--business', partner.businessId, '--serial', serial, '--outlet', outlet.outletId, '--json']).status === 0 ? true : undefined), 30_000);
  });

  afterAll(async () => {
    await events?.stop();
    for (const app of apps) app.process.kill('SIGTERM');
    await Promise.all(apps.map((app) => app.exited));
  });

  it('registers a serial number to one business only', async () => {
    const other = createPartner('Other POS Partner');
    // Until onboarding reaches pos-ingest the answer is "unknown business"; then it is this one.
    const taken = await eventually(async () => {
      const attempt = npmRun('terminal:register', ['--business', other.businessId, '--serial', serial]);
      return attempt.stderr.includes('not known to pos-ingest') ? undefined : attempt;
    }, 30_000);
    expect(taken.status).toBe(2);
    expect(taken.stderr).toContain(`terminal ${serial} belongs to another business`);
  });

  it('credits the outlet’s collection wallet for an approved card, once, with fundAccount.success', async () => {
    const first = send(['--amount', '250000', '--sequence', '000001']);
    expect(first.status).toBe(0);
    const { data } = JSON.parse(first.stdout) as { data: { reference: string; transactionStatus: string } };
    expect(data.transactionStatus).toBe('PROCESSING');
    const again = JSON.parse(send(['--amount', '250000', '--sequence', '000001']).stdout) as { data: { reference: string } };
    expect(again.data.reference).toBe(data.reference);

    const event = await partnerEvent('fundAccount.success', data.reference);
    expect(event.eventData).toMatchObject({ productType: 'pos', amount: '250000', transactionStatus: 'SUCCESS', transactionType: 'CREDIT' });
    expect(JSON.stringify(event)).not.toContain('5061460410120223210');
    expect((await wallet()).ledgerBalance).toBe('250000');
  });

  it('sends a FAILED event for a declined card and credits nothing', async () => {
    const before = (await wallet()).ledgerBalance;
    const declined = JSON.parse(send(['--amount', '7000', '--card', '4000000000000002']).stdout) as { data: { reference: string } };
    const event = await partnerEvent('fundAccount.failed', declined.data.reference);
    expect(event.eventData).toMatchObject({ transactionStatus: 'FAILED', comment: 'Do not honour' });
    expect((await wallet()).ledgerBalance).toBe(before);
  });
});
