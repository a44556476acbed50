import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseAllDocuments } from 'yaml';

import { allApps, appPorts, repoRoot, useApps } from './apps';

jest.setTimeout(180_000);

interface Rule {
  alert: string;
  expr: string;
  labels: Record<string, string>;
  annotations: { summary: string; runbook_url: string };
}

/** The alerting rules, from the PrometheusRule that deploy/k8s/base/monitoring.yaml carries. */
const rules = parseAllDocuments(readFileSync(join(repoRoot, 'deploy/k8s/base/monitoring.yaml'), 'utf8'))
  .map((document) => document.toJSON() as { kind: string; spec: { groups?: { rules: Rule[] }[] } })
  .filter((object) => object.kind === 'PrometheusRule')
  .flatMap((object) => object.spec.groups ?? [])
  .flatMap((group) => group.rules);
const dashboard = JSON.parse(readFileSync(join(repoRoot, 'deploy/observability/grafana-dashboard.json'), 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

/** PromQL words that are not metric names, and `up`, the series Prometheus keeps of each scrape. */
const promql = new Set(
  'sum max min avg count rate irate increase histogram_quantile absent by without on ignoring group_left group_right bool and or unless offset le up'.split(
    ' ',
  ),
);

/** Series of the cluster's kube-state-metrics, which alerts about the autoscalers read. */
const clusterSeries = new Set([
  'kube_horizontalpodautoscaler_status_current_replicas',
  'kube_horizontalpodautoscaler_spec_max_replicas',
]);

/** The metric names a PromQL expression reads: what is left once labels, strings and functions are gone. */
function metricsIn(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  return [...new Set((bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? []).filter((word) => !promql.has(word)))];
}

/** Series names an app exports: every `# TYPE` line, histograms with their _bucket, _count and _sum. */
function exportedSeries(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(name + suffix);
  }
  return names;
}

describe('alerts and dashboard', () => {
  useApps(allApps);
  const exported = new Set<string>();

  beforeAll(async () => {
    for (const name of allApps) {
      const text = await (await fetch(`http://127.0.0.1:${appPorts[name]}/metrics`)).text();
      for (const series of exportedSeries(text)) exported.add(series);
    }
  });

  it('reads only metrics the apps export, in every alert and every dashboard panel', () => {
    const expressions = [
      ...rules.map((rule) => [`alert ${rule.alert}`, rule.expr]),
      ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => [`panel ${panel.title}`, target.expr])),
    ];
    const missing = expressions.flatMap(([where, expr]) =>
      metricsIn(expr)
        .filter((metric) => !exported.has(metric) && !clusterSeries.has(metric))
        .map((metric) => `${where}: ${metric}`),
    );
    expect(missing).toEqual([]);
    expect(expressions.flatMap(([, expr]) => metricsIn(expr)).length).toBeGreaterThan(rules.length);
  });

  it('covers lag and parked messages, the outbox, webhooks and HTTP, each alert with its runbook entry', () => {
    const named = rules.flatMap((rule) => metricsIn(rule.expr));
    for (const metric of [
      'kafka_consumer_lag',
      'kafka_dlq_depth',
      'outbox_oldest_unpublished_age_seconds',
      'webhook_delivery_attempts_total',
      'webhook_oldest_due_delivery_age_seconds',
      'http_request_duration_seconds_count',
      'http_request_duration_seconds_bucket',
      // pos-ingest: refusals at capacity, submissions not published, decryption, publish p99, and
      // how old the backlog card-processor has not handled is.
      'pos_submissions_total',
      'pos_decrypt_failures_total',
      'pos_publish_duration_seconds_bucket',
      'kafka_consumer_lag_age_seconds',
      'platform_dependency_up',
    ]) {
      expect(named).toContain(metric);
    }
    // HTTP errors count what partners get, not the probes' and scrapes' answers.
    const errors = rules.find((rule) => rule.alert === 'HttpServerErrors')!;
    expect(errors.expr.match(/route!~"\/health\/\.\*\|\/metrics"/g)).toHaveLength(2);
    const operations = readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8');
    for (const rule of rules) {
      // Absolute, as Alertmanager's receivers link it: docs/operations.md where the team reads it.
      expect(rule.annotations.runbook_url).toBe(`https://docs.example.ng/operations#${rule.alert.toLowerCase()}`);
      expect([rule.alert, operations.includes(`### ${rule.alert}\n`)]).toEqual([rule.alert, true]);
    }
  });

  it("charts every app's instances, CPU, memory and event-loop delay", () => {
    const charted = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricsIn(target.expr)));
    for (const metric of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(charted).toContain(metric);
    }
    expect(dashboard.panels.some((panel) => panel.targets.some((target) => /\bup\b/.test(target.expr)))).toBe(true);
  });

  it('fires when an app is no longer scraped, for each app by the name its pods are scraped under', () => {
    const notScraped = rules.filter((rule) => rule.alert === 'AppNotScraped');
    expect(notScraped.map((rule) => rule.labels.app).sort()).toEqual([...allApps].sort());
    for (const rule of notScraped) {
      expect(rule.expr).toBe(`absent(up{namespace="payments", app_kubernetes_io_name="${rule.labels.app}"} == 1)`);
    }
  });
});
