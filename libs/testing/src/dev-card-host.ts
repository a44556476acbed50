import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { repoRoot } from './compose';

const run = promisify(execFile);
const script = join(repoRoot, 'deploy/card-host/card-host.sh');

/** What the host does with the answers to requests a rule matches (deploy/card-host, PUT /faults). */
export interface FaultRule {
  /** The PAN (DE2) it applies to; every PAN when absent. */
  pan?: string;
  /** The request's MTI; `0200` when absent. */
  mti?: string;
  /** delay: answer `ms` later; drop: never answer; twice: answer two times; close: close the connection unanswered. */
  action: 'delay' | 'drop' | 'twice' | 'close';
  ms?: number;
  /** Requests after which the rule is spent; never when absent. */
  times?: number;
}

/** A request the host received with that RRN, and the DE39 it decided (sent unless a fault held it back). */
export interface ReceivedMessage {
  mti: string;
  stan: string | null;
  de39: string | null;
  time: string;
}

/** The host's totals for a settlement date, as a 0500 carries them. */
export interface HostTotals {
  date: string;
  refundCount: number;
  refundAmount: number;
  purchaseCount: number;
  purchaseAmount: number;
  reversedCount: number;
  reversedAmount: number;
  /** As DE97: `C` or `D`, then 16 digits. */
  net: string;
}

export interface DevHost {
  /** The ISO 8583 port, `127.0.0.1:<port>`. */
  address: string;
  faults(rules: FaultRule[]): Promise<void>;
  clearFaults(): Promise<void>;
  /** Closes every connection and refuses new ones for `ms`. */
  down(ms: number): Promise<void>;
  messages(rrn: string): Promise<ReceivedMessage[]>;
  totals(date: string): Promise<HostTotals>;
  /** Stops the host, and removes its data folder when this helper made it. */
  stop(): Promise<void>;
}

export interface DevHostOptions {
  port: number;
  controlPort: number;
  /** The zone PIN key, K1K2 as 32 hex characters. */
  zonePinKey: string;
  /** Where the journal and log go; a new folder under the system's temporary one when absent. */
  dataDir?: string;
}

/** A private development card host (deploy/card-host/card-host.sh) on the ports given. */
export async function startDevHost({ port, controlPort, zonePinKey, dataDir }: DevHostOptions): Promise<DevHost> {
  const folder = dataDir ?? mkdtempSync(join(tmpdir(), 'card-host-'));
  const env = {
    ...process.env,
    CARD_HOST_PORT: String(port),
    CARD_HOST_CONTROL_PORT: String(controlPort),
    CARD_HOST_DATA_DIR: folder,
    CARD_HOST_ZONE_PIN_KEY: zonePinKey,
  };
  // The first start on a machine fetches jPOS from Maven Central and compiles the host.
  await run('bash', [script, 'start'], { env, timeout: 300_000 });

  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`http://127.0.0.1:${controlPort}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`card host ${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  return {
    address: `127.0.0.1:${port}`,
    faults: async (rules) => void (await control('PUT', '/faults', rules)),
    clearFaults: async () => void (await control('DELETE', '/faults')),
    down: async (ms) => void (await control('POST', '/down', { ms })),
    messages: async (rrn) => (await control('GET', `/messages?rrn=${encodeURIComponent(rrn)}`)) as ReceivedMessage[],
    totals: async (date) => (await control('GET', `/totals?date=${encodeURIComponent(date)}`)) as HostTotals,
    stop: async () => {
      await run('bash', [script, 'stop'], { env, timeout: 60_000 });
      if (!dataDir) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** `count` different TCP ports nothing listens on now, for a private host. */
export async function freePorts(count: number): Promise<number[]> {
  // All held open at once, so the system cannot hand the same port out twice.
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((done, fail) => {
          server.once('error', fail);
          server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port));
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
  return ports;
}
