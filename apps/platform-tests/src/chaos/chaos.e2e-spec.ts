import { writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';

import { eventually, FaultRule } from '@payments/testing';

import { AppName, repoRoot } from '../apps';
import { audit, FaultWindow, Received } from './audit';
import { ChaosPlatform, platformApps } from './chaos-platform';
import { ClusterFaults } from './cluster-faults';
import { Load, Partner } from './load';

// Inside `npm test` for 60 s with one fault of each kind; `npm run chaos` sets CHAOS_SECONDS:
// five minutes by default, with every app killed in turn (any run of 200 s or more).
// `npm run chaos -- --cluster` sets CHAOS_CLUSTER: a secured cluster of three brokers and two
// instances of every app.
const seconds = Number(process.env.CHAOS_SECONDS ?? 60);
const clustered = process.env.CHAOS_CLUSTER === 'true';
// Recovery allowed after a fault ends: Kafka consumers rejoin, pools reconnect.
const recoveryMs = 25_000;

jest.setTimeout((seconds + 900) * 1000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Receivers for three businesses: one answers at once, one fails 30% of attempts, one never
 * answers. The flaky one fails an event at most twice: the run's retry schedule gives a delivery
 * eight attempts, and eight independent 30% failures (one event in about 15,000) would exhaust
 * them by chance, leaving the audit nothing to say about the platform.
 */
async function startReceivers(
  received: Received[],
): Promise<{ server: Server; url: (mode: string, businessId: string) => string }> {
  const flakyFailures = new Map<string, number>();
  const server = createServer((request, response) => {
    const [, mode, businessId] = (request.url ?? '').split('/');
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (mode === 'hang') return; // the dispatcher times out
      const eventId = String(request.headers['x-event-id']);
      const failed = flakyFailures.get(eventId) ?? 0;
      if (mode === 'flaky' && failed < 2 && Math.random() < 0.3) {
        flakyFailures.set(eventId, failed + 1);
        return void response.writeHead(500).end();
      }
      received.push({ businessId, eventId, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: (mode, businessId) => `http://127.0.0.1:${port}/${mode}/${businessId}` };
}

interface PlannedFault {
  fault: string;
  inject: (platform: ChaosPlatform) => Promise<void>;
  unnoticed?: boolean;
}

/** How long a 0200 waits for its 0210 in the run: an answer later than this is reversed. */
const cardNetworkTimeoutMs = 3_000;

/**
 * The card host misbehaving, each for a while: answers dropped (the host approves and books, the
 * platform hears nothing), answers after the timeout, connections closed with requests in
 * flight, and the host down for 30 s.
 */
function cardNetworkFaults(): PlannedFault[] {
  const misbehave = (rules: FaultRule[], ms: number) => async (platform: ChaosPlatform) => {
    await platform.cardHost.faults(rules);
    await sleep(ms);
    await platform.cardHost.clearFaults();
  };
  return [
    { fault: 'card host drops its answers for 10 s', inject: misbehave([{ action: 'drop' }], 10_000) },
    {
      fault: 'card host answers after the timeout for 10 s',
      inject: misbehave([{ action: 'delay', ms: cardNetworkTimeoutMs + 2_000 }], 10_000),
    },
    {
      fault: 'card host closes connections with requests in flight',
      inject: misbehave([{ action: 'close', times: 5 }], 5_000),
    },
    {
      fault: 'card host down for 30 s',
      inject: async (platform) => {
        await platform.cardHost.down(30_000);
        await sleep(30_000);
      },
    },
  ];
}

/** On one broker: each app killed (all five in a long run, one in a short one), the broker stopped for 30 s, PostgreSQL restarted. */
function singleBrokerFaults(runMs: number): PlannedFault[] {
  const killed: AppName[] = runMs >= 200_000 ? platformApps : ['outlet-service'];
  return [
    ...cardNetworkFaults(),
    ...killed.map((app) => ({
      fault: `SIGKILL ${app}, restarted`,
      inject: async (platform: ChaosPlatform) => {
        await platform.kill(app);
        await platform.addInstance(app);
      },
    })),
    {
      fault: 'Kafka broker stopped for 30 s',
      inject: async (platform: ChaosPlatform) => {
        await platform.broker!.stop();
        await sleep(30_000);
        await platform.broker!.start();
      },
    },
    {
      fault: 'PostgreSQL restarted',
      inject: async (platform: ChaosPlatform) => {
        await platform.postgres.stop();
        await sleep(2_000);
        await platform.postgres.start();
      },
    },
  ];
}

/**
 * On a cluster of three with two instances of every app: a rolling restart of the brokers, an
 * instance of every app killed, the apps scaled out and in, and the broker
 * leading the most partitions killed (down 60 s in a long run, 20 s in a short one).
 */
function clusterFaults(runMs: number): PlannedFault[] {
  const downSeconds = runMs >= 200_000 ? 60 : 20;
  return [
    ...cardNetworkFaults(),
    {
      // Each broker hands its partitions and its consumer groups over before it stops, and the
      // consumers follow their group's coordinator to another broker (patches/kafkajs*).
      fault: 'brokers restarted one at a time (SIGTERM, back in sync, next)',
      inject: (platform) => new ClusterFaults(platform.cluster!).restartInTurn(),
      unnoticed: true,
    },
    {
      fault: 'one instance of every app SIGKILLed, replaced',
      inject: async (platform) => {
        await Promise.all(platformApps.map((app) => platform.kill(app)));
        await Promise.all(platformApps.map((app) => platform.addInstance(app)));
      },
    },
    {
      fault: 'an instance of every app added, then one removed (SIGTERM)',
      inject: async (platform) => {
        await Promise.all(platformApps.map((app) => platform.addInstance(app)));
        await sleep(10_000);
        await Promise.all(platformApps.map((app) => platform.removeInstance(app)));
      },
    },
    {
      fault: `broker leading the most partitions SIGKILLed, back after ${downSeconds} s`,
      inject: async (platform) => {
        await new ClusterFaults(platform.cluster!).killBusiestLeader(downSeconds * 1000);
      },
    },
  ];
}

/** The apps' warnings and errors logged while any of `requests` waited, the last `limit` of them, shortened. */
function warningsDuring(output: string, requests: { at: number; answeredAt: number }[], limit = 15): string[] {
  const warnings = output.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { level?: number; time?: number };
      const time = entry.time ?? 0;
      const waiting = requests.some((request) => time >= request.at && time <= request.answeredAt);
      return (entry.level ?? 0) >= 40 && waiting ? [{ time, line: line.slice(0, 300) }] : [];
    } catch {
      return [];
    }
  });
  // In the order they were logged, across instances (each line names its process's pid).
  return warnings
    .sort((a, b) => a.time - b.time)
    .slice(-limit)
    .map((warning) => warning.line);
}

/** The run's faults, spread over its first 85%. */
function schedule(runMs: number): (PlannedFault & { at: number })[] {
  const faults = clustered ? clusterFaults(runMs) : singleBrokerFaults(runMs);
  const spacing = (runMs * 0.85) / faults.length;
  return faults.map((fault, index) => ({ ...fault, at: Math.round(spacing * index + spacing / 3) }));
}

const title = clustered
  ? 'chaos on a cluster of three: every flow while brokers restart and die and app instances come and go'
  : 'chaos: every flow while apps are killed, the broker stops and PostgreSQL restarts';

describe(title, () => {
  const platform = new ChaosPlatform(
    {
      OUTBOX_POLL_INTERVAL_MS: '500',
      WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE_MS: '1000,2000,4000,8000,15000,30000,60000',
      WEBHOOK_CIRCUIT_COOLDOWN_MS: '5000',
      CARD_NETWORK_TIMEOUT_MS: String(cardNetworkTimeoutMs),
      CARD_NETWORK_REVERSAL_INTERVAL_MS: '2000',
    },
    clustered ? { cluster: true, instances: 2 } : {},
  );
  const received: Received[] = [];
  let receivers: Awaited<ReturnType<typeof startReceivers>>;

  beforeAll(async () => {
    receivers = await startReceivers(received);
    await platform.start();
  });

  afterAll(async () => {
    await platform.stop();
    receivers?.server.close();
  });

  it('keeps every promise: the audit finds no violation', async () => {
    const partners: Partner[] = [];
    for (const mode of ['ok', 'flaky', 'hang']) {
      const created = JSON.parse(
        platform.cli('checkout-gateway', 'partner-create', ['--name', `Chaos ${mode}`, '--json']),
      ) as Partner;
      partners.push({ ...created, serial: `SN-CHAOS-${mode}-${Date.now()}`, outlets: [] });
    }
    const [ok, flaky, hang] = partners;
    const setup = new Load(platform, partners);
    const gateway = (partner: Partner, method: string, path: string, body?: unknown) =>
      fetch(`${platform.url('checkout-gateway')}${path}`, {
        method,
        headers: { 'x-api-key': partner.apiKey, 'x-api-secret': partner.apiSecret, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    for (const [partner, mode] of [
      [ok, 'ok'],
      [flaky, 'flaky'],
      [hang, 'hang'],
    ] as const) {
      await eventually(
        async () =>
          (await gateway(partner, 'PUT', '/webhooks/endpoint', { url: receivers.url(mode, partner.businessId) }))
            .status === 200
            ? true
            : undefined,
        60_000,
      );
      await eventually(
        async () => ((await gateway(partner, 'GET', '/wallets/settlement')).status === 200 ? true : undefined),
        60_000,
      );
      await setup.createOutlet(partner);
      await setup.createOutlet(partner);
      const outlet = partner.outlets[0].outletId;
      await eventually(() => {
        try {
          platform.cli('pos-ingest', 'terminal-register', [
            '--business',
            partner.businessId,
            '--serial',
            partner.serial,
            '--outlet',
            outlet,
          ]);
          return true;
        } catch {
          return undefined; // onboarding and the outlet reach pos-ingest over Kafka
        }
      }, 60_000);
    }

    // The business whose endpoint never answers takes part too: its events must not reach anyone else.
    const load = new Load(platform, partners);
    const started = Date.now();
    const running = load.run(4, 8);
    const faults: FaultWindow[] = [];
    for (const planned of schedule(seconds * 1000)) {
      await sleep(Math.max(0, started + planned.at - Date.now()));
      const from = Date.now();
      await planned.inject(platform);
      faults.push({ fault: planned.fault, from, to: Date.now() + recoveryMs, unnoticed: planned.unnoticed });
    }
    await sleep(Math.max(0, started + seconds * 1000 - Date.now()));
    load.stop();
    await running;

    // Settle: accepted POS transactions decided and the approved ones booked, card network
    // requests decided and their reversals acknowledged, paid checkouts ended, outboxes published and every event of the answering endpoints delivered.
    const deliveringTo = [ok.businessId, flaky.businessId];
    const posReferences = load.promised.filter((promise) => promise.kind === 'pos').map((promise) => promise.reference);
    const settleStarted = Date.now();
    let pending: Record<string, number> = {};
    await eventually(async () => {
      [pending] = await platform.query<Record<string, number>>(
        `SELECT $2::int - (SELECT count(*)::int FROM card_processor.pos_authorisations WHERE reference = ANY($3)) AS pos_unprocessed,
                  (SELECT count(*)::int FROM card_processor.pos_authorisations a WHERE a.reference = ANY($3) AND a.approved
                     AND NOT EXISTS (SELECT 1 FROM outlets.journal_entries e WHERE e.kind = 'pos' AND e.reference = a.reference)) AS pos_approved_unbooked,
                  (SELECT count(*)::int FROM gateway.checkouts c WHERE c.status <> 'SUCCESS'
                     AND EXISTS (SELECT 1 FROM outlets.journal_entries e WHERE e.kind = 'checkout' AND e.reference = c.reference)) AS booked_checkouts_open,
                  (SELECT count(*)::int FROM gateway.outbox WHERE published_at IS NULL) AS gateway_outbox,
                  (SELECT count(*)::int FROM outlets.outbox WHERE published_at IS NULL) AS outlets_outbox,
                  (SELECT count(*)::int FROM card_processor.outbox WHERE published_at IS NULL) AS card_processor_outbox,
                  (SELECT count(*)::int FROM card_processor.network_requests WHERE state IN ('sent', 'unknown')) AS card_network_unsettled,
                  (SELECT count(*)::int FROM webhooks.deliveries WHERE status <> 'succeeded' AND business_id = ANY($1)) AS undelivered,
                  (SELECT count(*)::int FROM (SELECT payload->>'eventId' AS id, payload->>'businessId' AS business FROM gateway.outbox WHERE topic = 'partner.events.v1'
                                              UNION ALL SELECT payload->>'eventId', payload->>'businessId' FROM outlets.outbox WHERE topic = 'partner.events.v1') e
                     WHERE e.business = ANY($1) AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.event_id::text = e.id)) AS events_not_yet_routed`,
        [deliveringTo, posReferences.length, posReferences],
      );
      return Object.values(pending).every((n) => n === 0) ? true : undefined;
    }, 180_000).catch(() => undefined); // whatever is still missing, the audit names
    const settledIn = Math.round((Date.now() - settleStarted) / 1000);

    const violations = await audit(platform, {
      attempts: load.attempts,
      promised: load.promised,
      attempted: load.attempted,
      checkouts: load.checkouts,
      received,
      faults,
      partners,
      deliveringTo,
      secrets: partners.flatMap((partner) => [partner.apiSecret, partner.posEncryptionKey]),
    });

    // Each 503 is put down to the latest fault begun before its answer came (faults may overlap
    // their predecessors' recovery), so each fault's row shows the unavailability it caused.
    const unavailableDuring = (fault: FaultWindow) =>
      load.attempts.filter(
        (attempt) =>
          attempt.status === 503 &&
          attempt.at <= fault.to &&
          [...faults].reverse().find((other) => other.from <= attempt.answeredAt) === fault,
      );
    const byStatus = new Map<string, number>();
    for (const attempt of load.attempts) {
      byStatus.set(
        String(attempt.status ?? 'no answer'),
        (byStatus.get(String(attempt.status ?? 'no answer')) ?? 0) + 1,
      );
    }
    // What the card host's faults did: requests reversed are the ones whose outcome they hid.
    const cardRequests = await platform.query<{ state: string; reversal_code: string | null; n: number }>(
      `SELECT state, reversal_code, count(*)::int AS n FROM card_processor.network_requests GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const outcomes = new Map<string, number>();
    for (const promise of load.promised) outcomes.set(promise.kind, (outcomes.get(promise.kind) ?? 0) + 1);
    const lines = [
      `\nChaos run${clustered ? ' on a cluster of three, two instances of every app' : ''}: ${seconds} s, ${load.attempts.length} requests, ${load.checkouts.length} checkouts; settled in ${settledIn} s, still pending: ${JSON.stringify(pending)}`,
      '\n| fault injected | window s | 503 answers | first 503 asked to last answered, s |\n|---|---|---|---|',
      ...faults.map((fault) => {
        const unavailable = unavailableDuring(fault);
        const span = unavailable.length
          ? (Math.max(...unavailable.map((attempt) => attempt.answeredAt)) - unavailable[0].at) / 1000
          : 0;
        return `| ${fault.fault} | ${((fault.to - fault.from) / 1000).toFixed(0)} | ${unavailable.length} | ${span.toFixed(0)} |`;
      }),
      '\n| answer | requests |\n|---|---|',
      ...[...byStatus].sort().map(([status, n]) => `| ${status} | ${n} |`),
      "\n| card network requests, by state (reversals by the host's answer) | count |\n|---|---|",
      ...cardRequests.map((row) => `| ${row.state}${row.reversal_code ? ` (${row.reversal_code})` : ''} | ${row.n} |`),
      '\n| outcome promised | count |\n|---|---|',
      ...[...outcomes].sort().map(([kind, n]) => `| ${kind} | ${n} |`),
      `\n| apps restarted after exiting on their own | ${platform.crashes.length ? platform.crashes.join(', ') : 'none'} |\n|---|---|`,
      `\n| events | count |\n|---|---|\n| webhook deliveries received | ${received.length} |\n| distinct events received | ${new Set(received.map((item) => item.eventId)).size} |`,
      '\n| rule | violations |\n|---|---|',
      ...Object.entries(violations).map(([rule, found]) => `| ${rule} | ${found.length} |`),
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (platform.crashes.length > 0) {
      writeFileSync(join(repoRoot, '.data/chaos-exits.log'), platform.crashOutput.join('\n\n'));
    }
    // A violation is diagnosed from what the apps logged around it.
    if (Object.values(violations).some((found) => found.length > 0)) {
      writeFileSync(join(repoRoot, '.data/chaos-apps.log'), platform.output());
      process.stdout.write('What every app instance printed is in .data/chaos-apps.log\n');
      // CI keeps only the end of this run's output: the warnings logged while the requests the
      // audit faults waited go there too (a 503 inside a fault's window is allowed, and left out).
      const faulted = load.attempts.filter((attempt) => {
        if ((attempt.status ?? 0) < 500) return false;
        const windows = faults.filter((fault) => attempt.at <= fault.to && attempt.answeredAt >= fault.from);
        return attempt.status !== 503 || windows.every((fault) => fault.unnoticed);
      });
      process.stdout.write(`${warningsDuring(platform.output(), faulted).join('\n')}\n`);
    }

    expect(Object.fromEntries(Object.entries(violations).filter(([, found]) => found.length > 0))).toEqual({});
    // The run did real work. Faults cover most of it, so on a busy 2-core machine a third of a
    // promise per second is what a sound run can be sure of.
    expect(load.promised.length).toBeGreaterThanOrEqual(seconds / 3);
    for (const app of platformApps) expect([app, platform.alive(app)]).toEqual([app, platform.instancesPerApp]);
  });
});
