import { ChildProcess, spawn } from 'node:child_process';

import { eventually, testEnvironment } from '@payments/testing';

import { repoRoot } from './apps';
import { RecordingReceiver } from './receiver';

jest.setTimeout(300_000);

/** Ports of their own, away from a developer's `npm start` (3000) and the other suites' apps. */
const portBase = 23000;

/** `npm start` as a developer runs it, and the webhooks docs/webhooks.md shows them receiving. */
describe('npm start on a developer machine', () => {
  let start: ChildProcess;
  let printed = '';
  const receiver = new RecordingReceiver();

  beforeAll(async () => {
    await receiver.start();
    const { DATABASE_URL, KAFKA_BROKERS } = testEnvironment();
    // npm start's own settings, as a developer's shell would leave them: none of the tests'.
    start = spawn(process.execPath, ['tools/start.mjs'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL,
        KAFKA_BROKERS,
        APP_PORT_BASE: String(portBase),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    start.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    start.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await eventually(() => (printed.includes('Try it:') ? true : undefined), 240_000).catch((error: Error) => {
      throw new Error(`${error.message}; npm start printed:\n${printed}`);
    });
  });

  afterAll(async () => {
    if (start.exitCode === null) {
      const exited = new Promise((resolve) => start.once('exit', resolve));
      start.kill('SIGINT');
      await exited;
    }
    receiver.stop();
  });

  it('says that sandbox receivers on this machine get webhooks, and delivers there, never to metadata addresses', async () => {
    expect(printed).toContain('sandbox businesses may use receivers on this machine');
    expect(printed).toContain('link-local and metadata addresses stay refused');
    const headers = {
      'x-api-key': /x-api-key\s+(\S+)/.exec(printed)![1],
      'x-api-secret': /x-api-secret\s+(\S+)/.exec(printed)![1],
      'content-type': 'application/json',
    };
    const gateway = `http://127.0.0.1:${portBase}`;
    // The seed partner's onboarding reaches webhook-dispatcher over Kafka within moments of the banner.
    const setUrl = (url: string) =>
      eventually(async () => {
        const answer = await fetch(`${gateway}/webhooks/endpoint`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ url }),
        });
        const { data } = (await answer.clone().json()) as { data: { code?: string } };
        return data.code === 'INVALID_TENANT' ? undefined : answer;
      }, 30_000);

    const metadata = await setUrl('http://169.254.169.254/latest/meta-data');
    expect([metadata.status, ((await metadata.json()) as { data: { code: string } }).data.code]).toEqual([
      422,
      'WEBHOOK_URL_NOT_ALLOWED',
    ]);
    const local = await setUrl(receiver.url);
    expect(local.status).toBe(200);
    expect((await fetch(`${gateway}/webhooks/test`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    await eventually(() => (receiver.got('webhook.test') ? true : undefined), 30_000);
  });
});
