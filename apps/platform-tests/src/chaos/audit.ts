import { ChaosPlatform } from './chaos-platform';
import { kafkaTrail } from './kafka-trail';
import { Attempt, cardNumbersUsed, Partner, Promised } from './load';

/** A webhook as the receiver got it. */
export interface Received {
  businessId: string;
  eventId: string;
  body: string;
}

/** When a fault was in effect, widened by the time the platform is allowed to recover. */
export interface FaultWindow {
  fault: string;
  from: number;
  to: number;
  /** Callers must not notice it: not even a 503 may be answered inside its window. */
  unnoticed?: boolean;
}

export type Violations = Record<string, string[]>;

const outboxes = ['gateway', 'outlets', 'card_processor', 'pos_ingest', 'webhooks'];

type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * `npm run reconcile` for every Lagos date the run touched, as an operator runs it after
 * cut-over: the host's 0500 answer, the records and the ledger must agree, transaction by
 * transaction. Each difference it reports is a violation.
 */
function reconcileRun(platform: ChaosPlatform, faults: FaultWindow[]): string[] {
  const lagosDate = (at: number) => new Date(at + 3_600_000).toISOString().slice(0, 10);
  const dates = new Set([lagosDate(faults[0]?.from ?? Date.now()), lagosDate(Date.now())]);
  const found: string[] = [];
  for (const date of dates) {
    const run = platform.runCli('card-processor', 'reconcile', ['--date', date, '--network', 'sandbox', '--json']);
    if (run.status !== 0 && run.status !== 3) {
      found.push(`reconcile ${date} failed (${run.status}): ${run.stderr.slice(-300)}`);
      continue;
    }
    const report = JSON.parse(run.stdout) as { differences: { kind: string; reference?: string; detail?: string }[] };
    found.push(...report.differences.map((difference) => `${date}: ${JSON.stringify(difference)}`));
  }
  return found;
}

/**
 * Money is exact whatever the card host did: a payment is credited exactly when the host approved
 * its request and the platform heard it (once, as a paid checkout, a card captured after its
 * checkout ended, or a POS credit), and every request whose outcome was unknown is reversed with
 * the host's acknowledgement.
 */
async function auditCardNetwork(q: Query, violations: Violations): Promise<void> {
  const rule = 'every card approval booked exactly once, and nothing else booked';
  const checkouts = await q<{ reference: string; state: string; charge: string; booked: number }>(
    `SELECT r.payment_reference AS reference, r.state, c.status AS charge,
       (SELECT count(*)::int FROM outlets.journal_entries e WHERE e.business_id = r.business_id AND (
          (e.kind = 'checkout' AND e.reference = r.payment_reference AND EXISTS (
             SELECT 1 FROM outlets.checkout_outcomes o WHERE o.checkout_reference = r.payment_reference AND o.method = 'card'))
          OR (e.kind = 'suspense' AND e.reference = c.id))) AS booked
     FROM card_processor.network_requests r
     JOIN card_processor.card_charges c ON c.business_id = r.business_id AND c.checkout_reference = r.payment_reference
     WHERE r.purpose = 'checkout'`,
  );
  for (const checkout of checkouts) {
    const approved = checkout.state === 'approved';
    if (approved !== (checkout.charge === 'SUCCESS') || checkout.booked !== (approved ? 1 : 0)) {
      violations[rule].push(
        `checkout ${checkout.reference}: request ${checkout.state}, charge ${checkout.charge}, ${checkout.booked} bookings`,
      );
    }
  }
  const terminals = await q<{ reference: string; state: string; approved: boolean | null; booked: number }>(
    `SELECT r.payment_reference AS reference, r.state, a.approved,
       (SELECT count(*)::int FROM outlets.journal_entries e WHERE e.kind = 'pos' AND e.reference = r.payment_reference) AS booked
     FROM card_processor.network_requests r
     LEFT JOIN card_processor.pos_authorisations a ON a.reference = r.payment_reference
     WHERE r.purpose = 'pos'`,
  );
  for (const pos of terminals) {
    const approved = pos.state === 'approved';
    if (approved !== (pos.approved === true) || pos.booked !== (approved ? 1 : 0)) {
      violations[rule].push(
        `POS ${pos.reference}: request ${pos.state}, decided ${String(pos.approved)}, ${pos.booked} bookings`,
      );
    }
  }
  const unacknowledged = await q<{ rrn: string; state: string; attempts: number }>(
    `SELECT rrn, state, reversal_attempts AS attempts FROM card_processor.network_requests WHERE state IN ('sent', 'unknown')`,
  );
  violations['every reversal acknowledged by the end'].push(
    ...unacknowledged.map((row) => `RRN ${row.rrn}: ${row.state} after ${row.attempts} reversal attempts`),
  );
}

/**
 * Checks every promise the platform made during the run against its own records and the
 * receivers' logs. Each rule lists what broke it; all empty is a clean run.
 */
export async function audit(
  platform: ChaosPlatform,
  input: {
    attempts: Attempt[];
    promised: Promised[];
    attempted: Promised[];
    checkouts: { businessId: string; reference: string }[];
    received: Received[];
    faults: FaultWindow[];
    partners: Partner[];
    deliveringTo: string[];
    secrets: string[];
  },
): Promise<Violations> {
  const violations: Violations = {
    'every journal entry sums to zero': [],
    "every wallet's balance equals its postings": [],
    'no wallet below zero available': [],
    'every 200 has exactly one outcome': [],
    'no money command took effect twice': [],
    'every accepted POS submission processed exactly once': [],
    'every card approval booked exactly once, and nothing else booked': [],
    'every reversal acknowledged by the end': [],
    "the host's totals equal the records' and the ledger's": [],
    'a checkout is paid exactly when its money is booked once': [],
    "every event reached its business's endpoint": [],
    'duplicate deliveries carry the same event': [],
    'nothing reached another business': [],
    'no 5xx but 503, and 503 only inside a fault window': [],
    'no 503 inside the window of a fault callers must not notice': [],
    'no card data, API secret or POS key in any log line': [],
    'no app exited on its own': [],
  };
  const q = <T>(sql: string, params: unknown[] = []) => platform.query<T>(sql, params);

  for (const row of await q<{ entry_id: string }>(
    'SELECT entry_id FROM outlets.postings GROUP BY entry_id HAVING sum(amount) <> 0',
  )) {
    violations['every journal entry sums to zero'].push(row.entry_id);
  }
  const unbalanced = await q<{ id: string }>(
    `SELECT w.id FROM outlets.wallets w LEFT JOIN (SELECT wallet_id, sum(amount) AS total FROM outlets.postings GROUP BY wallet_id) p ON p.wallet_id = w.id
      WHERE w.ledger_balance <> coalesce(p.total, 0)`,
  );
  violations["every wallet's balance equals its postings"].push(...unbalanced.map((row) => row.id));
  const negative = await q<{ id: string }>(
    'SELECT id FROM outlets.wallets WHERE NOT allow_negative AND ledger_balance - held_balance < 0',
  );
  violations['no wallet below zero available'].push(...negative.map((row) => row.id));

  const count = async (kind: Promised['kind'], businessId: string, reference: string): Promise<number> => {
    const sql: Record<string, string> = {
      outlet: 'SELECT count(*)::int AS n FROM outlets.outlets WHERE business_id = $1 AND account_name = $2',
      funding:
        "SELECT count(*)::int AS n FROM outlets.journal_entries WHERE business_id = $1 AND kind = 'funding' AND reference = $2",
      internal_transfer:
        "SELECT count(*)::int AS n FROM outlets.journal_entries WHERE business_id = $1 AND kind = 'internal_transfer' AND reference = $2",
      refused_transfer:
        "SELECT count(*)::int AS n FROM outlets.journal_entries WHERE business_id = $1 AND kind = 'internal_transfer' AND reference = $2",
      payout: 'SELECT count(*)::int AS n FROM outlets.payouts WHERE business_id = $1 AND reference = $2',
    };
    return (await q<{ n: number }>(sql[kind], [businessId, reference]))[0].n;
  };
  for (const promise of input.promised.filter(
    (item) => item.kind in { outlet: 1, funding: 1, internal_transfer: 1, payout: 1, refused_transfer: 1 },
  )) {
    const found = await count(promise.kind, promise.businessId, promise.reference);
    const expected = promise.kind === 'refused_transfer' ? 0 : 1;
    if (found !== expected) {
      violations['every 200 has exactly one outcome'].push(`${promise.kind} ${promise.reference}: ${found} found`);
    }
  }
  for (const attempt of input.attempted) {
    const found = await count(attempt.kind, attempt.businessId, attempt.reference);
    if (found > 1) {
      violations['no money command took effect twice'].push(`${attempt.kind} ${attempt.reference}: ${found}`);
    }
  }

  for (const promise of input.promised.filter((item) => item.kind === 'pos')) {
    const [authorised] = await q<{ n: number; approved: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE approved)::int AS approved FROM card_processor.pos_authorisations WHERE reference = $1',
      [promise.reference],
    );
    const [booked] = await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM outlets.journal_entries WHERE kind = 'pos' AND reference = $1",
      [promise.reference],
    );
    if (authorised.n !== 1 || booked.n !== authorised.approved) {
      violations['every accepted POS submission processed exactly once'].push(
        `${promise.reference}: ${authorised.n} authorisations, ${booked.n} bookings`,
      );
    }
  }

  await auditCardNetwork(q, violations);
  violations["the host's totals equal the records' and the ledger's"].push(...reconcileRun(platform, input.faults));

  const paidByAnswer = new Set(
    input.promised.filter((item) => item.kind === 'checkout_paid').map((item) => item.reference),
  );
  for (const checkout of input.checkouts) {
    const [record] = await q<{ status: string }>('SELECT status FROM gateway.checkouts WHERE reference = $1', [
      checkout.reference,
    ]);
    const [booked] = await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM outlets.journal_entries WHERE kind = 'checkout' AND reference = $1",
      [checkout.reference],
    );
    const paid = record?.status === 'SUCCESS';
    if (paid !== (booked.n === 1) || booked.n > 1 || (paidByAnswer.has(checkout.reference) && !paid)) {
      violations['a checkout is paid exactly when its money is booked once'].push(
        `${checkout.reference}: ${record?.status ?? 'missing'}, ${booked.n} bookings, answered paid: ${paidByAnswer.has(checkout.reference)}`,
      );
    }
  }

  const events = new Map<string, string>(); // event id → business id
  const published = new Map<string, string>(); // event id → what it is and when its outbox published it
  for (const schema of outboxes) {
    const rows = await q<{ event_id: string; business_id: string; type: string; published_at: Date | null }>(
      `SELECT payload->>'eventId' AS event_id, payload->>'businessId' AS business_id, payload->>'type' AS type, published_at
         FROM ${schema}.outbox WHERE topic = 'partner.events.v1'`,
    ).catch(() => []);
    for (const row of rows) {
      events.set(row.event_id, row.business_id);
      published.set(
        row.event_id,
        `${row.type} from ${schema}, published ${row.published_at?.toISOString() ?? 'never'}`,
      );
    }
  }
  const receivedIds = new Map<string, Received[]>();
  for (const delivery of input.received) {
    receivedIds.set(delivery.eventId, [...(receivedIds.get(delivery.eventId) ?? []), delivery]);
  }
  const neverRouted = new Map<string, string>(); // event id → business id
  for (const [eventId, businessId] of events) {
    if (!input.deliveringTo.includes(businessId) || receivedIds.has(eventId)) continue;
    // Where its delivery stands, so a failed run says whether it was given up, still due or never routed.
    const [delivery] = await q<{ status: string; attempts: number; codes: string }>(
      `SELECT d.status, d.attempts, coalesce(string_agg(coalesce(a.status_code::text, a.error), ',' ORDER BY a.attempt), '') AS codes
         FROM webhooks.deliveries d LEFT JOIN webhooks.attempts a ON a.delivery_id = d.id
        WHERE d.event_id::text = $1 AND d.target = 'business' GROUP BY d.id`,
      [eventId],
    );
    if (delivery) {
      violations["every event reached its business's endpoint"].push(
        `${eventId} of ${businessId}: ${delivery.status} after ${delivery.attempts} attempts (${delivery.codes})`,
      );
    } else neverRouted.set(eventId, businessId);
  }
  const trail = await kafkaTrail(platform.kafkaClient('chaos-audit'), 'partner.events.v1', 'webhook-dispatcher.bulk', [
    ...neverRouted.keys(),
  ]);
  for (const [eventId, businessId] of neverRouted) {
    violations["every event reached its business's endpoint"].push(
      `${eventId} of ${businessId}: never routed (${published.get(eventId)}; ${trail.get(eventId)})`,
    );
  }
  for (const [eventId, deliveries] of receivedIds) {
    if (new Set(deliveries.map((delivery) => delivery.body)).size > 1) {
      violations['duplicate deliveries carry the same event'].push(eventId);
    }
    for (const delivery of deliveries) {
      if (events.get(eventId) !== delivery.businessId) {
        violations['nothing reached another business'].push(`${eventId} at ${delivery.businessId}'s endpoint`);
      }
    }
  }

  for (const attempt of input.attempts) {
    if (attempt.status === null || attempt.status < 500) continue;
    // A request in flight when a fault struck is inside its window, however early it started.
    const windows = input.faults.filter((fault) => attempt.at <= fault.to && attempt.answeredAt >= fault.from);
    const described = `${attempt.operation}: ${attempt.status} at ${new Date(attempt.at).toISOString()}`;
    if (attempt.status !== 503 || windows.length === 0) {
      violations['no 5xx but 503, and 503 only inside a fault window'].push(described);
    } else if (windows.every((fault) => fault.unnoticed)) {
      violations['no 503 inside the window of a fault callers must not notice'].push(described);
    }
  }

  const output = platform.output();
  const leaks = [...cardNumbersUsed, '"cvv":"123"', '"pin":"1234"', ...input.secrets].filter((secret) =>
    output.includes(secret),
  );
  if (/\d{16,19}D\d{4}/.test(output)) leaks.push('a track 2 string');
  violations['no card data, API secret or POS key in any log line'].push(
    ...leaks.map((leak) => `${leak.slice(0, 12)}…`),
  );
  // The run restarts such an app as an orchestrator would, but no fault it injects is one an app
  // should give up on: only the instances it kills or removes itself may stop.
  violations['no app exited on its own'].push(...platform.crashes);
  return violations;
}
