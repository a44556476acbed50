import { ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

import { WebhookEndpointResponse } from '@payments/contracts';
import { firstRow } from '@payments/platform-database';
import { docsPath, eventually, readDocs } from '@payments/testing';

import { DispatcherFixture } from '../testing/dispatcher.fixture';

jest.setTimeout(120_000);

const snippets = docsPath('webhooks');

/** eventData that trips naive re-serialisation: slashes, quotes, escapes, non-ASCII, empty containers. */
const trickyEventData = {
  transactionReference: 'ref/2026/11\\21',
  comment: 'Customer said "pay now" — Ọ̀ṣun market, ₦1,500.00 🙂',
  sender: { name: 'Adébáyọ̀ <Ade> & Sons', accountNumber: '0690000031', bankCode: null },
  empty: {},
  list: [],
  amount: '150000',
  count: 42,
  settled: true,
};

/**
 * A free port below Linux's ephemeral range (32768 and up). The receiver binds it only after
 * this check lets go of it; a port from the ephemeral range could meanwhile be handed to any
 * outgoing connection of the suite (Kafka, PostgreSQL), one below it only to a process that
 * asks for it by number.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((done) => {
      const server = createServer()
        .once('error', () => done(false))
        .listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
    if (free) return port;
  }
}

/** Whether something listens on the port yet (an interpreter may take seconds to start on a busy machine). */
function listening(port: number): Promise<true | undefined> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1')
      .once('connect', () => {
        socket.destroy();
        done(true);
      })
      .once('error', () => done(undefined));
  });
}

interface Running {
  process: ChildProcess;
  output: () => string;
}

function run(command: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(command, args, {
    cwd: snippets,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { process: child, output: () => output };
}

const receivers: Record<string, (port: number, env: Record<string, string>) => Running> = {
  python: (port, env) => run('python3', ['receiver.py'], { ...env, PORT: String(port) }),
  php: (port, env) => run('php', ['-S', `127.0.0.1:${port}`, 'receiver.php'], env),
  node: (port, env) => run(process.execPath, ['receiver.mjs'], { ...env, PORT: String(port) }),
};

describe('the documented receivers verify real deliveries', () => {
  const fixture = new DispatcherFixture();
  const running: Running[] = [];

  beforeAll(() => fixture.start());

  afterAll(async () => {
    for (const each of running) each.process.kill();
    await fixture.close();
  });

  it('docs/webhooks.md shows each receiver exactly as tested', () => {
    const guide = readDocs('webhooks.md');
    for (const file of ['receiver.py', 'receiver.php', 'receiver.mjs']) {
      expect(guide).toContain(readDocs('webhooks', file).trim());
    }
  });

  it.each(Object.keys(receivers))('%s accepts a genuine delivery and refuses a forged one', async (language) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const genuine = await fixture.business(url);
    const forger = await fixture.business(url);
    const reply = await fixture.command<WebhookEndpointResponse>({
      type: 'getEndpoint',
      businessId: genuine.businessId,
    });
    if (!reply.ok) throw new Error(reply.error.message);
    const { signingSecret } = reply.data;
    const receiver = receivers[language](port, {
      PAYMENTS_API_KEY: genuine.apiKey,
      PAYMENTS_SIGNING_SECRET: signingSecret,
    });
    running.push(receiver);
    // The dispatcher's test schedule gives up after about two seconds, so the receiver must be up first.
    await eventually(() => listening(port), 30_000).catch((error: Error) => {
      throw new Error(`the ${language} receiver is not listening (${error.message}); it wrote: ${receiver.output()}`);
    });

    const eventId = await fixture.event(genuine.businessId, trickyEventData);
    const status = async (businessId: string) => (await fixture.deliveries(businessId))[0]?.status;
    await eventually(async () => ((await status(genuine.businessId)) === 'succeeded' ? true : undefined), 30_000);
    expect(receiver.output()).toContain(`"eventId": "${eventId}"`.replace(': ', language === 'python' ? ': ' : ':'));

    // Same receiver, a delivery signed with another business's key: refused, so retried.
    const forgedId = await fixture.event(forger.businessId, trickyEventData);
    const forged = await eventually(async () => {
      return firstRow<{ status_code: number }>(
        fixture.dataSource,
        `SELECT a.status_code FROM webhooks.attempts a JOIN webhooks.deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1`,
        [forgedId],
      );
    });
    expect(forged.status_code).toBe(401);
    expect(receiver.output()).not.toContain(forgedId);
  });
});
