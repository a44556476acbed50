import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { allTopics, Topics } from '@payments/contracts';
import { isDevelopmentKey } from '@payments/platform-config';
import { strimziTopicsYaml, strimziUsersYaml } from '@payments/platform-kafka';
import { webhookPorts } from '@payments/platform-webhook-targets';
import {
  containerEnvironment,
  KubeObject,
  overlays,
  podSpecOf,
  renderOverlay,
  renderOverlayAtTag,
  renderOverlayEdited,
  repoRoot,
  unmountedFiles,
} from '@payments/testing';
import { parseAllDocuments } from 'yaml';

const apps = ['checkout-gateway', 'card-processor', 'pos-ingest', 'outlet-service', 'webhook-dispatcher'];
/** The development card host (deploy/card-host): the local overlay's one Deployment that is no app. */
const devCardHost = 'card-host';
const isApp = (object: KubeObject) => object.metadata.name !== devCardHost;
const partitionsOf = Object.fromEntries(Object.values(Topics).map((topic) => [topic.name, topic.partitions]));

type Model = new (data: object) => { validate(): void };

/** The kubernetes-models class for an object's apiVersion and kind (KEDA's and the Prometheus operator's from their own packages). */
function modelOf({ apiVersion, kind }: KubeObject): Model {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const source = group.endsWith('keda.sh')
    ? `@kubernetes-models/keda/${group}/${version}`
    : group === 'monitoring.coreos.com'
      ? `@kubernetes-models/prometheus-operator/${group}/${version}`
      : `kubernetes-models/${group ? `${group}/` : ''}${version}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require(source);
  const model = (module as Record<string, Model>)[kind];
  if (!model) throw new Error(`no model for ${apiVersion} ${kind}`);
  return model;
}

/** The pod a CronJob's Jobs run. */
const cronPodSpecOf = (cronJob: KubeObject) => podSpecOf((cronJob.spec as { jobTemplate: KubeObject }).jobTemplate);

/** The pod spec of a Deployment, a Job or a CronJob. */
const podOf = (object: KubeObject) => (object.kind === 'CronJob' ? cronPodSpecOf(object) : podSpecOf(object));

type LabelSelector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
};

/** Whether a label selector (a NetworkPolicy's podSelector) selects pods labelled so. */
function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  return (
    Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      if (operator === 'In') return values.includes(labels[key]);
      if (operator === 'NotIn') return !values.includes(labels[key]);
      return operator === 'Exists' ? key in labels : !(key in labels);
    })
  );
}

/** kustomize wraps long base64 Secret values over lines, which the API server's decoder ignores. */
function asTheApiServerReadsIt(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(Object.entries(object.data).map(([key, value]) => [key, value.replace(/\s/g, '')]));
  return { ...object, data };
}

describe.each(overlays)('the %s Kubernetes overlay', (overlay) => {
  const objects = renderOverlay(overlay);
  const ofKind = (kind: string) => objects.filter((object) => object.kind === kind);
  const named = (kind: string, name: string) => ofKind(kind).find((object) => object.metadata.name === name);

  it('renders objects that each validate against the Kubernetes (KEDA, Prometheus operator) schemas', () => {
    const invalid = objects.flatMap((object) => {
      // Strimzi's and the External Secrets Operator's resources: no schema package matches the
      // kubernetes-models the repo uses, so their API versions are checked against the operators'.
      const operatorVersions: Record<string, string[]> = {
        'kafka.strimzi.io/v1beta2': ['KafkaUser'],
        'external-secrets.io/v1': ['SecretStore', 'ExternalSecret'],
      };
      if (operatorVersions[object.apiVersion]) {
        return operatorVersions[object.apiVersion].includes(object.kind) && object.spec
          ? []
          : [`${object.kind}/${object.metadata.name}: not a ${object.apiVersion} kind this overlay expects`];
      }
      try {
        new (modelOf(object))(asTheApiServerReadsIt(object)).validate();
        return [];
      } catch (error) {
        return [`${object.kind}/${object.metadata.name}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
    expect(objects.every((object) => object.kind === 'Namespace' || object.metadata.namespace === 'payments')).toBe(
      true,
    );
  });

  it('gives each app a Deployment, a Service on its http port and a disruption budget', () => {
    for (const app of apps) {
      expect(named('Deployment', app)).toBeDefined();
      expect(named('Service', app)?.spec).toMatchObject({
        selector: { 'app.kubernetes.io/name': app },
        ports: [{ targetPort: 'http' }],
      });
      // A pod not ready never blocks a drain.
      expect(named('PodDisruptionBudget', app)?.spec).toMatchObject({
        selector: { matchLabels: { 'app.kubernetes.io/name': app } },
        unhealthyPodEvictionPolicy: 'AlwaysAllow',
      });
    }
  });

  it("spreads each app's pods over zones as a rule that a lost zone leaves room under, then nodes", () => {
    for (const deployment of ofKind('Deployment').filter(isApp)) {
      const name = deployment.metadata.name;
      const spread = (podSpecOf(deployment) as { topologySpreadConstraints?: Record<string, unknown>[] })
        .topologySpreadConstraints;
      const selector = { matchLabels: { 'app.kubernetes.io/name': name } };
      const zone = 'topology.kubernetes.io/zone';
      // On a laptop's single node, with no zone label, the rule is a preference.
      const rule =
        overlay === 'production'
          ? { topologyKey: zone, whenUnsatisfiable: 'DoNotSchedule', minDomains: 3, labelSelector: selector }
          : { topologyKey: zone, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selector };
      expect([name, spread]).toEqual([
        name,
        [
          expect.objectContaining(rule),
          expect.objectContaining({ topologyKey: zone, maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' }),
          expect.objectContaining({ topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' }),
        ],
      ]);
      if (overlay === 'production') {
        // While a zone is empty, each other zone holds at most maxSkew pods: two hold the maximum.
        const scaler = [...ofKind('HorizontalPodAutoscaler'), ...ofKind('ScaledObject')].find(
          (object) => (object.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === name,
        )!.spec as { maxReplicas?: number; maxReplicaCount?: number };
        const maximum = scaler.maxReplicas ?? scaler.maxReplicaCount ?? 0;
        expect([name, 2 * (spread![0].maxSkew as number) >= maximum]).toEqual([name, true]);
      } else {
        expect([name, spread![0].minDomains]).toEqual([name, undefined]);
      }
    }
  });

  it('runs every container non-root, on a read-only root filesystem, without capabilities, with resources', () => {
    const pods = [...ofKind('Deployment'), ...ofKind('Job'), ...ofKind('CronJob')].map((object) => [
      object.metadata.name,
      podOf(object),
    ]);
    for (const [name, pod] of pods as [string, ReturnType<typeof podSpecOf>][]) {
      expect([name, pod.securityContext?.runAsNonRoot]).toEqual([name, true]);
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect([name, container.name, container.securityContext]).toEqual([
          name,
          container.name,
          { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        ]);
        expect(container.resources?.requests?.cpu && container.resources.limits?.memory).toBeTruthy();
      }
    }
  });

  it('scales the gateway on CPU, pos-ingest on CPU and submissions, and the consumers on what they consume', () => {
    const hpaTargets = ofKind('HorizontalPodAutoscaler').map(
      (hpa) => (hpa.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef,
    );
    expect(hpaTargets).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout-gateway' }]);
    const scaled = ofKind('ScaledObject').map((object) => {
      const spec = object.spec as {
        scaleTargetRef: { name: string };
        maxReplicaCount: number;
        fallback?: { failureThreshold: number; replicas: number };
        triggers: { type: string; metadata: Record<string, string> }[];
      };
      return { spec, target: spec.scaleTargetRef.name };
    });
    expect(scaled.map(({ target }) => target).sort()).toEqual([
      'card-processor',
      'outlet-service',
      'pos-ingest',
      'webhook-dispatcher',
    ]);
    for (const { spec, target } of scaled) {
      expect(named('Deployment', target)).toBeDefined();
      if (target === 'pos-ingest') expect(spec.triggers.map(({ type }) => type)).toEqual(['cpu', 'prometheus']);
      for (const { type, metadata } of spec.triggers) {
        if (type === 'kafka') {
          // Groups are <SERVICE_NAME>.<traffic class>; more pods than partitions would sit idle.
          expect(metadata.consumerGroup).toMatch(new RegExp(`^${target}\\.(commands|events|bulk)$`));
          expect(partitionsOf[metadata.topic]).toBeGreaterThanOrEqual(spec.maxReplicaCount);
        } else if (target === 'pos-ingest') {
          // Not publishes in flight: those rise when the brokers are slow, which more pods do not relieve.
          expect([type, metadata.query ?? metadata.value]).toEqual(
            type === 'cpu'
              ? ['cpu', '65']
              : ['prometheus', 'sum(rate(pos_submissions_total{service="pos-ingest"}[2m]))'],
          );
        } else {
          // The backlog every pod reports whole, counted once.
          expect([target, type, metadata.query]).toEqual([
            'webhook-dispatcher',
            'prometheus',
            'max(webhook_deliveries_due{service="webhook-dispatcher"})',
          ]);
        }
        if (type === 'prometheus') {
          // Where the overlay's Prometheus is, and what to hold while it cannot be read.
          expect(metadata.serverAddress).toBe(
            overlay === 'production'
              ? 'http://kube-prometheus-stack-prometheus.monitoring.svc:9090'
              : 'http://prometheus.monitoring.svc:9090',
          );
          expect([target, spec.fallback?.failureThreshold, spec.fallback?.replicas]).toEqual([
            target,
            3,
            expect.any(Number),
          ]);
        }
      }
    }
  });

  it('scrapes each pod once, through a PodMonitor and rules that kube-prometheus-stack selects', () => {
    const annotated = ofKind('Deployment').filter((deployment) =>
      JSON.stringify((deployment.spec as { template: { metadata?: unknown } }).template.metadata ?? {}).includes(
        'prometheus.io',
      ),
    );
    expect(annotated.map((deployment) => deployment.metadata.name)).toEqual([]);
    for (const kind of ['PodMonitor', 'PrometheusRule']) {
      expect(ofKind(kind).map((object) => object.metadata.labels?.release)).toEqual(['kube-prometheus-stack']);
    }
  });

  it('reads consumer lag from the brokers the apps use, signed in as each app where the apps sign in', () => {
    const platform = objects.find(
      (object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('platform-config'),
    )!.data!;
    const authentications = new Map(ofKind('TriggerAuthentication').map((auth) => [auth.metadata.name, auth.spec]));
    const kafkaTriggers = ofKind('ScaledObject').flatMap((object) => {
      const spec = object.spec as {
        scaleTargetRef: { name: string };
        triggers: { type: string; metadata: Record<string, string>; authenticationRef?: { name: string } }[];
      };
      return spec.triggers
        .filter((trigger) => trigger.type === 'kafka')
        .map((trigger) => ({ app: spec.scaleTargetRef.name, trigger }));
    });
    expect(kafkaTriggers.length).toBeGreaterThan(3);
    for (const { app, trigger } of kafkaTriggers) {
      expect([app, trigger.metadata.bootstrapServers]).toEqual([app, platform.KAFKA_BROKERS]);
      if (platform.KAFKA_TLS !== 'true') continue;
      expect([app, trigger.metadata.sasl, trigger.metadata.tls]).toEqual([app, 'scram_sha512', 'enable']);
      const auth = authentications.get(trigger.authenticationRef?.name ?? '') as
        | {
            secretTargetRef: { parameter: string; name: string }[];
            env: { parameter: string; containerName: string }[];
          }
        | undefined;
      expect([app, auth?.secretTargetRef.find((ref) => ref.parameter === 'password')?.name]).toEqual([app, app]);
      expect([app, auth?.env.find((ref) => ref.parameter === 'username')?.containerName]).toEqual([app, app]);
    }
  });

  it("lets only the ingress controller reach the gateway, pos-ingest and cert-manager's solver, and only the dispatcher the internet", () => {
    type Peer = {
      namespaceSelector?: LabelSelector;
      podSelector?: LabelSelector;
      ipBlock?: { cidr: string; except?: string[] };
    };
    type Rule = { from?: Peer[]; to?: Peer[]; ports?: { port: number | string; protocol?: string }[] };
    type Policy = { podSelector: LabelSelector; ingress?: Rule[]; egress?: Rule[] };
    const policies = ofKind('NetworkPolicy');
    const specOf = (name: string) => policies.find((policy) => policy.metadata.name === name)?.spec as Policy;
    expect(specOf('default-deny')).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    // No rule lets everyone in: each names who may come.
    const openIngress = policies.filter((policy) => ((policy.spec as Policy).ingress ?? []).some((rule) => !rule.from));
    expect(openIngress.map((policy) => policy.metadata.name)).toEqual([]);
    // What may reach a pod labelled so, from a pod labelled so in a namespace named so, on a port.
    const admits = (
      pod: Record<string, string>,
      namespace: string,
      from: Record<string, string>,
      port: number | string,
    ) =>
      policies.some((policy) => {
        const spec = policy.spec as Policy;
        return (
          selects(spec.podSelector, pod) &&
          (spec.ingress ?? []).some(
            (rule) =>
              (rule.from ?? []).some(
                (peer) =>
                  (!peer.namespaceSelector ||
                    selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': namespace })) &&
                  (!peer.podSelector || selects(peer.podSelector, from)) &&
                  !peer.ipBlock,
              ) && (rule.ports ?? []).some((allowed) => allowed.port === port),
          )
        );
      });
    const controller = { 'app.kubernetes.io/name': 'ingress-nginx' };
    for (const app of ['checkout-gateway', 'pos-ingest']) {
      expect([app, admits({ 'app.kubernetes.io/name': app }, 'ingress-nginx', controller, 'http')]).toEqual([
        app,
        true,
      ]);
      // Another pod of the cluster, which could write its own X-Forwarded-For, does not get in.
      expect([app, admits({ 'app.kubernetes.io/name': app }, 'payments', { app: 'curl' }, 'http')]).toEqual([
        app,
        false,
      ]);
    }
    expect(admits({ 'app.kubernetes.io/name': 'card-processor' }, 'ingress-nginx', controller, 'http')).toBe(false);
    // cert-manager's HTTP-01 solver pod, which Let's Encrypt reaches through the controller.
    expect(admits({ 'acme.cert-manager.io/http01-solver': 'true' }, 'ingress-nginx', controller, 8089)).toBe(true);

    const toInternet = policies.filter((policy) =>
      JSON.stringify((policy.spec as Policy).egress ?? []).includes('0.0.0.0/0'),
    );
    expect(toInternet.map((policy) => policy.spec?.podSelector)).toEqual([
      { matchLabels: { 'app.kubernetes.io/name': 'webhook-dispatcher' } },
    ]);
    const [webhooks] = (toInternet[0].spec as Policy).egress ?? [];
    // Over IPv4 and IPv6, never a private range, on exactly the ports a webhook URL may name.
    expect(webhooks.to?.map((peer) => peer.ipBlock?.cidr)).toEqual(['0.0.0.0/0', '::/0']);
    expect(webhooks.to?.every((peer) => (peer.ipBlock?.except ?? []).length > 0)).toBe(true);
    expect(webhooks.ports?.map((port) => port.port).sort()).toEqual([...webhookPorts].sort());
    // DNS from kube-system's resolvers and from NodeLocal DNSCache, over UDP and TCP.
    const [dns] = specOf('dns-egress').egress ?? [];
    expect(dns.to).toEqual(
      expect.arrayContaining([
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } },
        { ipBlock: { cidr: '169.254.20.10/32' } },
      ]),
    );
    expect(dns.ports).toEqual([
      { port: 53, protocol: 'UDP' },
      { port: 53, protocol: 'TCP' },
    ]);
  });

  it('routes every documented partner path, the hosted page and POS over TLS, and never /metrics or /health', () => {
    type Path = { path: string; pathType: string; backend: { service: { name: string } } };
    type Spec = { tls: { hosts: string[] }[]; rules: { host: string; http: { paths: Path[] } }[] };
    const ingresses = ofKind('Ingress');
    const routes = ingresses.flatMap((ingress) =>
      (ingress.spec as Spec).rules.flatMap((rule) => rule.http.paths.map((path) => ({ host: rule.host, ...path }))),
    );
    const servedBy = (path: string, host?: string) =>
      routes
        .filter((route) => !host || route.host === host)
        .filter((route) =>
          route.pathType === 'Exact' ? path === route.path : path === route.path || path.startsWith(`${route.path}/`),
        )
        .map((route) => route.backend.service.name);
    const documented = Object.keys(
      (JSON.parse(readFileSync(join(repoRoot, 'docs/openapi.json'), 'utf8')) as { paths: object }).paths,
    );
    const misrouted = documented.flatMap((path) => {
      const app = path === '/pos' ? 'pos-ingest' : 'checkout-gateway';
      return servedBy(path).includes(app) ? [] : [`${path} does not reach ${app}`];
    });
    expect(misrouted).toEqual([]);
    expect([...servedBy('/metrics'), ...servedBy('/health/ready'), ...servedBy('/health/live')]).toEqual([]);
    // Every host over TLS with a certificate cert-manager issues.
    for (const ingress of ingresses) {
      const spec = ingress.spec as Spec;
      expect(spec.rules.map((rule) => rule.host).sort()).toEqual(spec.tls.flatMap((tls) => tls.hosts).sort());
      expect(ingress.metadata).toMatchObject({ annotations: { 'cert-manager.io/cluster-issuer': expect.any(String) } });
    }
    // The hosted page's links (CHECKOUT_URL) lead to it.
    const gatewayConfig = objects.find(
      (object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('checkout-gateway-config'),
    );
    const page = new URL(gatewayConfig!.data!.CHECKOUT_URL);
    if (overlay === 'production') {
      expect(servedBy(`${page.pathname}/session/CHK-1`, page.hostname)).toEqual(['checkout-gateway']);
      // A card payment's 3-D Secure step sends the customer to the page's host (card-payments.service.ts).
      expect(servedBy('/sandbox/3ds/CH-1', page.hostname)).toEqual(['checkout-gateway']);
    }
  });

  it('lets every app reach the Kafka brokers and the PostgreSQL its settings name, on their ports', () => {
    type Peer = { namespaceSelector?: { matchLabels?: Record<string, string> }; ipBlock?: { cidr: string } };
    type Rule = { to?: Peer[]; ports?: { port: number }[] };
    const everyPodMayReach = ofKind('NetworkPolicy')
      .filter((policy) => JSON.stringify(policy.spec?.podSelector) === '{}')
      .flatMap((policy) => ((policy.spec as { egress?: Rule[] }).egress ?? []) as Rule[]);
    // A Service address `<name>.<namespace>.svc:<port>` is reached by its namespace; any other
    // (a managed PostgreSQL) by an address range the overlay names, on its port.
    const unreachable = (address: string) => {
      const [host, port] = address.split(':');
      const inCluster = host.endsWith('.svc');
      const namespace = host.split('.')[1];
      const allowed = everyPodMayReach.some(
        (rule) =>
          (rule.to ?? []).some((peer) =>
            inCluster
              ? peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === namespace
              : peer.ipBlock !== undefined,
          ) && (rule.ports ?? []).some((allowedPort) => allowedPort.port === Number(port)),
      );
      return allowed ? [] : [address];
    };
    const addresses = ofKind('Deployment')
      .filter(isApp)
      .flatMap((deployment) => {
        const environment = containerEnvironment(objects, podSpecOf(deployment).containers[0]);
        const database = new URL(environment.DATABASE_URL);
        return [...environment.KAFKA_BROKERS.split(','), `${database.hostname}:${database.port || 5432}`];
      });
    expect(addresses.length).toBeGreaterThan(0);
    expect([...new Set(addresses)].flatMap(unreachable)).toEqual([]);
  });

  it("mounts every file a container's settings name (a Kafka user's password, a CA), in Deployments and Jobs alike", () => {
    const containers = [...ofKind('Deployment'), ...ofKind('Job'), ...ofKind('CronJob')].flatMap((object) => {
      const pod = podOf(object);
      return [...pod.containers, ...(pod.initContainers ?? [])];
    });
    expect(containers.length).toBeGreaterThan(5);
    expect(
      containers.flatMap((container) => unmountedFiles(container, containerEnvironment(objects, container))),
    ).toEqual([]);
  });

  it('reconciles the card networks daily after cut-over, as the schemas’ owner, on the hosts card-processor uses', () => {
    const cronJob = named('CronJob', 'card-reconciliation')!;
    expect(cronJob.spec).toMatchObject({
      schedule: '0 1 * * *',
      timeZone: 'Africa/Lagos',
      concurrencyPolicy: 'Forbid',
    });
    const [container] = cronPodSpecOf(cronJob).containers;
    expect(container.image).toContain('payments/card-processor');
    expect((container as { args?: string[] }).args).toEqual(['reconcile', '--date', 'yesterday']);
    const reconciling = containerEnvironment(objects, container);
    const migrating = containerEnvironment(
      objects,
      podSpecOf(ofKind('Job')[0]).initContainers!.find((step) => step.name === 'card-processor')!,
    );
    // It reads card_processor and outlets: the owner's login, as the migrations run, never migrating itself.
    expect(new URL(reconciling.DATABASE_URL).username).toBe(new URL(migrating.DATABASE_URL).username);
    expect(reconciling.MIGRATE_ON_START).toBe('false');
    // The hosts and acquirer ids the app's own connections use, and the way out to them.
    const deployment = named('Deployment', 'card-processor')!;
    const running = containerEnvironment(objects, podSpecOf(deployment).containers[0]);
    const cardNetwork = (environment: Record<string, string>) =>
      Object.entries(environment).filter(([name]) => name.startsWith('CARD_NETWORK_'));
    expect(cardNetwork(reconciling)).toEqual(cardNetwork(running));
    const labelsOf = (object: { spec?: unknown }) =>
      (object.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
    const appLabels = labelsOf(deployment);
    const jobLabels = labelsOf((cronJob.spec as { jobTemplate: KubeObject }).jobTemplate);
    const appsOwnEgress = ofKind('NetworkPolicy').filter((policy) => {
      const spec = policy.spec as { podSelector: LabelSelector; policyTypes?: string[] };
      return (
        JSON.stringify(spec.podSelector) !== '{}' &&
        spec.policyTypes?.includes('Egress') &&
        selects(spec.podSelector, appLabels)
      );
    });
    expect(
      appsOwnEgress
        .filter((policy) => !selects((policy.spec as { podSelector: LabelSelector }).podSelector, jobLabels))
        .map((policy) => policy.metadata.name),
    ).toEqual([]);
  });

  it('runs the development card host in the local overlay only, and lets card-processor reach the network it names', () => {
    type Peer = { podSelector?: LabelSelector; ipBlock?: { cidr: string } };
    type Rule = { from?: Peer[]; to?: Peer[]; ports?: { port: number | string }[] };
    const processorPod = podSpecOf(named('Deployment', 'card-processor')!);
    const processor = containerEnvironment(objects, processorPod.containers[0]);
    const processorLabels = { 'app.kubernetes.io/name': 'card-processor' };
    const policies = ofKind('NetworkPolicy').map((policy) => policy.spec as { podSelector: LabelSelector } & object);
    // The rules card-processor's own egress policies add (not the ones every pod has).
    const processorEgress = policies
      .filter((spec) => JSON.stringify(spec.podSelector) !== '{}' && selects(spec.podSelector, processorLabels))
      .flatMap((spec) => (spec as { egress?: Rule[] }).egress ?? []);
    const images = [...ofKind('Deployment'), ...ofKind('Job'), ...ofKind('CronJob')].flatMap((object) => {
      const pod = podOf(object);
      return [...pod.containers, ...(pod.initContainers ?? [])].map((container) => container.image);
    });

    if (overlay === 'local') {
      const host = named('Deployment', devCardHost)!;
      expect(host.spec?.replicas).toBe(1);
      const [container] = podSpecOf(host).containers;
      expect(container.image).toBe('localhost/payments/card-host:dev');
      const environment = containerEnvironment(objects, container);
      expect(environment.CARD_HOST_BIND).toBe('0.0.0.0');
      // PIN blocks travel under the key both sides hold.
      expect(environment.CARD_HOST_ZONE_PIN_KEY).toMatch(/^[0-9A-F]{32}$/i);
      expect(environment.CARD_HOST_ZONE_PIN_KEY).toBe(processor.CARD_NETWORK_SANDBOX_ZONE_PIN_KEY);
      const tcpPort = (probe?: unknown) => (probe as { tcpSocket?: { port: string } } | undefined)?.tcpSocket?.port;
      expect([tcpPort(container.readinessProbe), tcpPort(container.livenessProbe)]).toEqual(['iso', 'control']);
      expect(container.ports).toEqual([
        { name: 'iso', containerPort: 8583 },
        { name: 'control', containerPort: 8584 },
      ]);
      expect(named('Service', devCardHost)?.spec).toMatchObject({
        selector: { 'app.kubernetes.io/name': devCardHost },
        ports: [
          { name: 'iso', port: 8583, targetPort: 'iso' },
          { name: 'control', port: 8584, targetPort: 'control' },
        ],
      });
      // Sandbox cards go to the host's Service; there is no live network.
      expect(processor.CARD_NETWORK_SANDBOX_ADDRESS).toBe(`${devCardHost}:8583`);
      expect(processor.CARD_NETWORK_LIVE_ADDRESS).toBeUndefined();
      // card-processor may reach the host's ISO port, which takes card-processor's connections.
      const hostLabels = { 'app.kubernetes.io/name': devCardHost };
      expect(
        processorEgress.some(
          (rule) =>
            (rule.to ?? []).some((peer) => peer.podSelector && selects(peer.podSelector, hostLabels)) &&
            (rule.ports ?? []).some(({ port }) => port === 8583),
        ),
      ).toBe(true);
      const hostIngress = policies
        .filter((spec) => JSON.stringify(spec.podSelector) !== '{}' && selects(spec.podSelector, hostLabels))
        .flatMap((spec) => (spec as { ingress?: Rule[] }).ingress ?? []);
      expect(
        hostIngress.some(
          (rule) =>
            (rule.from ?? []).some((peer) => peer.podSelector && selects(peer.podSelector, processorLabels)) &&
            (rule.ports ?? []).some(({ port }) => port === 'iso'),
        ),
      ).toBe(true);
      return;
    }

    // Production: no development host, in any form; the card switch, over TLS, for both networks.
    expect([named('Deployment', devCardHost), named('Service', devCardHost)]).toEqual([undefined, undefined]);
    expect(images.filter((image) => image.includes('card-host'))).toEqual([]);
    const fromSecrets = (processorPod.containers[0].env ?? []).filter((entry) => entry.valueFrom?.secretKeyRef);
    for (const network of ['SANDBOX', 'LIVE']) {
      const setting = (name: string) => processor[`CARD_NETWORK_${network}_${name}`];
      const [host, port] = setting('ADDRESS').split(':');
      expect(host).not.toMatch(/^(127\.|localhost$|card-host$)/);
      expect([network, setting('TLS'), setting('ACQUIRER_ID')]).toEqual([
        network,
        'true',
        expect.stringMatching(/^\d+$/),
      ]);
      // The zone PIN keys are secrets (payments-keys, created beside the cluster), never settings.
      expect(fromSecrets.map((entry) => entry.name)).toContain(`CARD_NETWORK_${network}_ZONE_PIN_KEY`);
      // Outside the cluster: an address block (never the whole internet) on the switch's port.
      const allowed = processorEgress.some(
        (rule) =>
          (rule.to ?? []).length > 0 &&
          (rule.to ?? []).every((peer) => peer.ipBlock && peer.ipBlock.cidr !== '0.0.0.0/0') &&
          (rule.ports ?? []).some((allowedPort) => allowedPort.port === Number(port)),
      );
      expect([network, allowed]).toEqual([network, true]);
    }
  });

  it('applies the Kafka topics, then migrates every app in a Job, each from its own image, and never at pod start', () => {
    const [job] = ofKind('Job');
    const pod = podSpecOf(job);
    const [topics, ...steps] = [...(pod.initContainers ?? []), ...pod.containers];
    // Where Strimzi owns the topics (production), the step only checks them.
    expect([topics.name, topics.command?.slice(-2)]).toEqual([
      'topics',
      overlay === 'production'
        ? ['tools/runtime/topics-apply.cjs', '--check']
        : ['./tools/runtime/register-paths.cjs', 'tools/runtime/topics-apply.cjs'],
    ]);
    expect(steps.map((step) => step.name)).toEqual(apps);
    for (const step of steps) expect(step.image).toContain(`payments/${step.name}`);
    // Each step migrates as the schemas' owner and grants its app's own login its schema; the
    // app's pods log in as that login, never as the owner.
    const owners = new Set<string>();
    for (const step of steps) {
      const login = step.name.replace(/-/g, '_');
      const migration = containerEnvironment(objects, step);
      owners.add(new URL(migration.DATABASE_URL).username);
      expect([step.name, migration.DATABASE_APP_ROLE]).toEqual([step.name, login]);
      const pod = podSpecOf(named('Deployment', step.name)!);
      const running = containerEnvironment(objects, pod.containers[0]);
      expect([step.name, new URL(running.DATABASE_URL).username]).toEqual([step.name, login]);
    }
    expect(owners.size).toBe(1);
    expect(apps.map((app) => app.replace(/-/g, '_'))).not.toContain([...owners][0]);
    // The owner's login is a Secret of its own (a generator may add a hash), which no app's pods read.
    const readByApps = ofKind('Deployment').flatMap((deployment) => {
      const pod = podSpecOf(deployment) as ReturnType<typeof podSpecOf> & {
        volumes?: { secret?: { secretName: string } }[];
      };
      return [
        ...pod.containers.flatMap((container) =>
          (container.env ?? []).flatMap((variable) => variable.valueFrom?.secretKeyRef?.name ?? []),
        ),
        ...(pod.volumes ?? []).flatMap((volume) => volume.secret?.secretName ?? []),
      ];
    });
    expect(readByApps.some((name) => name.startsWith('payments-database'))).toBe(true); // their own logins
    expect(readByApps.filter((name) => name.startsWith('payments-database-owner'))).toEqual([]);
    // The owner's login runs beside the database's address and nothing else: no key, no Kafka user.
    const read = steps.map((step) => [step.name, Object.keys(containerEnvironment(objects, step)).sort()]);
    expect(read).toEqual(steps.map((step) => [step.name, ['DATABASE_APP_ROLE', 'DATABASE_URL', 'SERVICE_NAME']]));
    const mounted = steps.flatMap((step) => step.volumeMounts ?? []).map((mount) => mount.mountPath);
    expect(mounted.filter((path) => path !== '/etc/postgresql')).toEqual([]); // a managed database's CA only
    // Named after its ConfigMap, which holds every setting the Job reads, each copied in; kept
    // once finished, so that no GitOps tool runs it again after a TTL deleted it.
    const release = named('ConfigMap', job.metadata.name);
    expect(Object.entries(release?.data ?? {}).filter(([, value]) => value === 'copied')).toEqual([]);
    expect(containerEnvironment(objects, topics).KAFKA_BROKERS).toBe(
      containerEnvironment(objects, podSpecOf(named('Deployment', 'checkout-gateway')!).containers[0]).KAFKA_BROKERS,
    );
    expect(job.spec).not.toHaveProperty('ttlSecondsAfterFinished');
    // Argo CD: the namespace, its account and the network policies, then the Job and its
    // ConfigMap, then the apps.
    const wave = (object?: KubeObject) =>
      (object?.metadata as { annotations?: Record<string, string> } | undefined)?.annotations?.[
        'argocd.argoproj.io/sync-wave'
      ];
    expect([wave(job), wave(release)]).toEqual(['-1', '-1']);
    // Whatever makes a Secret the Job reads or mounts (a KafkaUser, an ExternalSecret), and the
    // accounts and policies it runs under, come before it.
    const jobSecrets = [
      ...((pod as { volumes?: { secret?: { secretName: string } }[] }).volumes ?? []).flatMap((volume) =>
        volume.secret ? [volume.secret.secretName] : [],
      ),
      ...[...pod.containers, ...(pod.initContainers ?? [])].flatMap((container) =>
        (container.env ?? []).flatMap((variable) =>
          variable.valueFrom?.secretKeyRef ? [variable.valueFrom.secretKeyRef.name] : [],
        ),
      ),
    ];
    const madeHere = (object: KubeObject) =>
      object.kind === 'KafkaUser'
        ? object.metadata.name
        : object.kind === 'ExternalSecret'
          ? (object.spec as { target: { name: string } }).target.name
          : undefined;
    const makers = objects.filter((object) => jobSecrets.includes(madeHere(object) ?? ''));
    const first = [...makers, ...ofKind('Namespace'), ...ofKind('ServiceAccount'), ...ofKind('NetworkPolicy')];
    expect(
      first.filter((object) => wave(object) !== '-2').map((object) => `${object.kind}/${object.metadata.name}`),
    ).toEqual([]);
    if (overlay === 'production') {
      // Every Secret the Job needs is made by the overlay, from the secret manager or by Strimzi.
      expect([...new Set(jobSecrets)].filter((name) => !makers.some((maker) => madeHere(maker) === name))).toEqual([]);
    }
    expect(ofKind('Deployment').map(wave)).toEqual(ofKind('Deployment').map(() => undefined));
    const config = objects.find(
      (object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('platform-config'),
    );
    expect(config?.data?.MIGRATE_ON_START).toBe('false');
  });
});

/**
 * The migration Job's pod template as both overlays render it, less what payments-migrate's
 * hash covers already (the images, its own name): what its TEMPLATE value must digest.
 */
function migrationJobShape(): string {
  const shapes = overlays.map((overlay) => {
    const [job] = renderOverlay(overlay).filter((object) => object.kind === 'Job');
    return JSON.stringify((job.spec as { template: unknown }).template)
      .replace(/"image":"[^"]*?(payments\/[a-z-]+)[:@][^"]*"/g, '"image":"$1"')
      .replaceAll(job.metadata.name, 'payments-migrate');
  });
  return createHash('sha256').update(shapes.join('\n')).digest('hex').slice(0, 12);
}

describe('the development keys', () => {
  it('are refused in production, which never allows them, and are all the local overlay and compose carry', () => {
    const production = renderOverlay('production');
    const containers = production
      .filter((object) => ['Deployment', 'Job', 'CronJob'].includes(object.kind))
      .flatMap((object) => {
        const pod = podOf(object);
        return [...pod.containers, ...(pod.initContainers ?? [])];
      });
    const allowing = containers.filter(
      (container) => containerEnvironment(production, container).ALLOW_DEVELOPMENT_KEYS !== undefined,
    );
    expect(allowing.map((container) => container.name)).toEqual([]);
    // Every key the local overlay and docker-compose.yml carry in the open is one production refuses.
    const keys = renderOverlay('local')
      .filter((object) => object.kind === 'Secret' && object.metadata.name.startsWith('payments-keys'))
      .flatMap((secret) => Object.values(secret.data ?? {}).map((value) => Buffer.from(value, 'base64').toString()));
    const compose = [
      ...readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8').matchAll(/^x-[a-z-]*key: &[a-z-]+ (\S+)$/gm),
    ].map((match) => match[1]);
    expect(keys.length).toBeGreaterThanOrEqual(5);
    expect(compose.length).toBeGreaterThanOrEqual(5);
    for (const key of [...keys, ...compose]) {
      const encoding = /^[0-9A-F]{32}$/i.test(key) ? 'hex' : 'base64';
      expect([key, isDevelopmentKey(key, encoding)]).toEqual([key, true]);
    }
  });
});

describe('the keys', () => {
  it('gives each app the keys of its own purposes alone, each one the secret manager provides', () => {
    const production = renderOverlay('production');
    const readByApp = Object.fromEntries(
      production
        .filter((object) => object.kind === 'Deployment' || object.kind === 'CronJob')
        .map((deployment) => [
          deployment.metadata.name,
          podOf(deployment)
            .containers.flatMap((container) => container.env ?? [])
            .flatMap((variable) =>
              variable.valueFrom?.secretKeyRef?.name === 'payments-keys' ? [variable.valueFrom.secretKeyRef.key] : [],
            )
            .sort(),
        ]),
    );
    expect(readByApp).toEqual({
      'checkout-gateway': [
        'API_KEY_SEALING_KEY',
        'CARD_DATA_KEY',
        'CARD_FINGERPRINT_KEY',
        'MEMBER_SECRET_SEALING_KEY',
        'PAGE_CURSOR_KEY',
        'POS_KEY_SEALING_KEY',
      ],
      'card-processor': [
        'CARD_DATA_KEY',
        'CARD_FINGERPRINT_KEY',
        'CARD_NETWORK_LIVE_ZONE_PIN_KEY',
        'CARD_NETWORK_SANDBOX_ZONE_PIN_KEY',
        'PIN_MASTER_KEY',
      ],
      'pos-ingest': ['CARD_DATA_KEY', 'PIN_MASTER_KEY', 'POS_KEY_SEALING_KEY', 'POS_REFERENCE_KEY'],
      'outlet-service': [],
      'webhook-dispatcher': ['API_KEY_SEALING_KEY', 'WEBHOOK_SECRET_SEALING_KEY'],
      // card-processor's settings, which require these; it opens no card data.
      'card-reconciliation': expect.arrayContaining(['CARD_DATA_KEY', 'CARD_FINGERPRINT_KEY']),
    });
    const provided = production
      .filter((object) => object.kind === 'ExternalSecret')
      .flatMap((external) => {
        const spec = external.spec as { target: { name: string }; data: { secretKey: string }[] };
        return spec.target.name === 'payments-keys' ? spec.data.map((entry) => entry.secretKey) : [];
      });
    expect(provided.sort()).toEqual([...new Set(Object.values(readByApp).flat())].sort());
  });
});

describe('the migration Job and its name', () => {
  it("is renamed by any change of its template, which payments-migrate's TEMPLATE digests", () => {
    // A change of the Job's steps, resources, volumes or a component's patch of it changes its
    // template, which no apply may change in place: TEMPLATE changes with it, and so the name.
    const base = readFileSync(join(repoRoot, 'deploy/k8s/base/kustomization.yaml'), 'utf8');
    const recorded = /- TEMPLATE=(\w+)/.exec(base)?.[1];
    expect([recorded, 'set TEMPLATE in deploy/k8s/base/kustomization.yaml to']).toEqual([
      migrationJobShape(),
      'set TEMPLATE in deploy/k8s/base/kustomization.yaml to',
    ]);
  });
});

describe('the production overlay and its managed PostgreSQL', () => {
  const objects = renderOverlay('production');
  const ofKind = (kind: string) => objects.filter((object) => object.kind === kind);
  const named = (kind: string, name: string) => ofKind(kind).find((object) => object.metadata.name === name);

  it("verifies the managed PostgreSQL's certificate from every pod that connects, with the provider's CA", () => {
    const pods = [...ofKind('Deployment'), ...ofKind('Job'), ...ofKind('CronJob')].map((object) => podOf(object));
    const connecting = pods.flatMap((pod) =>
      [...pod.containers, ...(pod.initContainers ?? [])]
        .map((container) => ({ pod, container, environment: containerEnvironment(objects, container) }))
        .filter(({ environment }) => environment.DATABASE_URL !== undefined),
    );
    expect(connecting.length).toBe(11); // five apps, five migration steps, the reconciliation
    for (const { pod, container, environment } of connecting) {
      const url = new URL(environment.DATABASE_URL);
      expect([container.name, url.searchParams.get('sslmode')]).toEqual([container.name, 'verify-full']);
      const mount = container.volumeMounts?.find((each) => each.mountPath === '/etc/postgresql');
      const volume = (pod as { volumes?: { name: string; secret?: { secretName: string } }[] }).volumes?.find(
        (each) => each.name === mount?.name,
      );
      expect([container.name, volume?.secret?.secretName]).toEqual([container.name, 'payments-database-ca']);
    }
  });

  it("holds, at every autoscaler's maximum, the database connections docs/operations.md counts", () => {
    const maximum = (app: string) => {
      const scaler = [...ofKind('HorizontalPodAutoscaler'), ...ofKind('ScaledObject')].find(
        (object) => (object.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === app,
      );
      const spec = scaler?.spec as { maxReplicas?: number; maxReplicaCount?: number };
      return spec.maxReplicas ?? spec.maxReplicaCount ?? 0;
    };
    const pool = (app: string) =>
      Number(containerEnvironment(objects, podSpecOf(named('Deployment', app)!).containers[0]).DATABASE_POOL_SIZE);
    const atMaxima = apps.reduce((sum, app) => sum + maximum(app) * pool(app), 0);
    const rollingOut = apps.reduce((sum, app) => sum + (maximum(app) + 1) * pool(app), 0);
    const operations = readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8');
    expect(operations).toContain(`**${atMaxima} connections** at the maxima, and **${rollingOut}** while`);
    for (const app of apps) {
      expect(operations).toMatch(
        new RegExp(`\\| ${app} +\\| ${maximum(app)} +\\| ${pool(app)} +\\| ${maximum(app) * pool(app)} +\\|`),
      );
    }
  });
});

describe('the patches in deploy/k8s', () => {
  it('each name an object the overlays render (kustomize skips a patch whose target is gone)', () => {
    const rendered = overlays.flatMap((overlay) => renderOverlay(overlay));
    type Patch = { target?: { kind: string; name?: string }; path?: string };
    const dirs = ['overlays/local', 'overlays/production', 'components/secured-kafka', 'components/managed-postgres'];
    const read = (dir: string, file: string) =>
      parseAllDocuments(readFileSync(join(repoRoot, 'deploy/k8s', dir, file), 'utf8'))[0].toJSON() as Record<
        string,
        unknown
      >;
    // A patch names its target, or is a file of the object it patches (a strategic merge).
    const targets = dirs.flatMap((dir) =>
      ((read(dir, 'kustomization.yaml').patches ?? []) as Patch[]).map((patch) => {
        if (patch.target) return patch.target;
        const object = read(dir, patch.path!) as unknown as KubeObject;
        return { kind: object.kind, name: object.metadata.name };
      }),
    );
    expect(targets.length).toBeGreaterThan(5);
    // The migration Job is renamed after the release once patched, hence the prefix.
    const dangling = targets.filter(
      ({ kind, name }) =>
        !rendered.some(
          (object) =>
            object.kind === kind &&
            // A target's name is a regular expression; the migration Job is renamed after what it runs.
            (!name ||
              new RegExp(`^(?:${name})$`).test(object.metadata.name) ||
              (kind === 'Job' && object.metadata.name.startsWith(`${name}-`))),
        ),
    );
    expect(dangling).toEqual([]);
  });
});

/** What an apply over `current` would be refused: a Job's template or a Deployment's selector changed in place. */
function immutableChanges(current: KubeObject[], next: KubeObject[]): string[] {
  const key = (object: KubeObject) => `${object.kind}/${object.metadata.name}`;
  const before = new Map(current.map((object) => [key(object), object]));
  const spec = (of: KubeObject) => of.spec as { template?: unknown; selector?: unknown };
  return next.flatMap((object) => {
    const earlier = before.get(key(object));
    if (!earlier) return [];
    if (object.kind === 'Job' && JSON.stringify(spec(object).template) !== JSON.stringify(spec(earlier).template)) {
      return [`${key(object)}: its pod template`];
    }
    if (
      object.kind === 'Deployment' &&
      JSON.stringify(spec(object).selector) !== JSON.stringify(spec(earlier).selector)
    ) {
      return [`${key(object)}: its selector`];
    }
    return [];
  });
}

const jobsOf = (objects: KubeObject[]) => objects.filter((object) => object.kind === 'Job');
/** The overlay's kustomization with `key` of platform-config set to `value`. */
function withPlatformSetting(kustomization: string, key: string, value: string): string {
  const header = /( {2}- name: platform-config\n {4}behavior: merge\n {4}literals:\n)/;
  return kustomization.replace(new RegExp(`\\n +- ${key}=[^\\n]*`), '').replace(header, `$1      - ${key}=${value}\n`);
}

/** A name the API server takes for a Job whose pods are named after it: a DNS label, room left for the pod's suffix. */
const validJobName = /^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$/;

describe.each(overlays)('the %s overlay applied again', (overlay) => {
  const current = renderOverlay(overlay);
  /** The overlay after `edit`: what an apply over the current one would be refused, and its migration Job. */
  const releasedWith = (edit: (kustomization: string) => string) => {
    const next = renderOverlayEdited(overlay, edit);
    const [job] = jobsOf(next);
    return { next, job, refused: immutableChanges(current, next) };
  };
  const [currentJob] = jobsOf(current);

  it('at a release of every app: a migration Job of its own, and nothing an apply cannot change', () => {
    const { next, job, refused } = releasedWith((text) => text.replace(/newTag: [^,}\n]+/g, "newTag: '9.9.9-next'"));
    expect(refused).toEqual([]);
    expect(jobsOf(next)).toHaveLength(1);
    expect(job.metadata.name).not.toBe(currentJob.metadata.name);
    expect(job.metadata.name).toMatch(validJobName);
    expect(podSpecOf(job).containers[0].image).toMatch(/:9\.9\.9-next$/);
  });

  it("at a release of one app: a migration Job of its own, running that app's new image", () => {
    const { job, refused } = releasedWith((text) =>
      text.replace(/(name: payments\/card-processor, [^}]*newTag: )[^,}\n]+/, "$1'0.1.1-fix'"),
    );
    expect(refused).toEqual([]);
    expect(job.metadata.name).not.toBe(currentJob.metadata.name);
    const step = podSpecOf(job).initContainers?.find((container) => container.name === 'card-processor');
    expect(step?.image).toMatch(/card-processor:0\.1\.1-fix$/);
  });

  it('after a change of settings the Job does not read: the same Job, unchanged, so the apply leaves it be', () => {
    const { job, refused } = releasedWith((text) => withPlatformSetting(text, 'TRUSTED_PROXIES', '10.0.0.0/8'));
    expect(refused).toEqual([]);
    expect(job).toEqual(currentJob);
  });

  it('after a change of a setting the Job reads: a Job of its own, with the new setting', () => {
    const { next, job, refused } = releasedWith((text) =>
      withPlatformSetting(text, 'KAFKA_BROKERS', 'kafka-2.example:9093'),
    );
    expect(refused).toEqual([]);
    expect(job.metadata.name).not.toBe(currentJob.metadata.name);
    const [topics] = podSpecOf(job).initContainers ?? [];
    expect(containerEnvironment(next, topics).KAFKA_BROKERS).toBe('kafka-2.example:9093');
  });

  it('with images from a registry with a port, pinned by digest: a valid Job name, the images as given', () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    const { next, job, refused } = releasedWith((text) =>
      text
        .replace(/newName: [^/,}]+\//g, 'newName: registry.internal:5000/')
        .replace(/newTag: [^,}\n]+/g, `digest: '${digest}'`),
    );
    expect(refused).toEqual([]);
    expect(job.metadata.name).toMatch(validJobName);
    const images = [...next.filter((object) => object.kind === 'Deployment' && isApp(object)), job].flatMap((object) =>
      [...podSpecOf(object).containers, ...(podSpecOf(object).initContainers ?? [])].map(
        (container) => container.image,
      ),
    );
    for (const image of images) {
      expect(image).toMatch(new RegExp(`^registry\\.internal:5000/payments/[a-z-]+@${digest}$`));
    }
  });

  it("leaves each app's pod count to its autoscaler, so an apply never resets it", () => {
    const next = renderOverlayAtTag(overlay, '9.9.9-next');
    const scaled = next
      .filter((object) => object.kind === 'HorizontalPodAutoscaler' || object.kind === 'ScaledObject')
      .map((object) => (object.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name);
    // The development card host is one pod, with no autoscaler (the local overlay only).
    const deployments = next.filter((object) => object.kind === 'Deployment' && isApp(object));
    expect(deployments.map((object) => object.metadata.name).sort()).toEqual([...scaled].sort());
    expect(
      deployments.filter((object) => object.spec?.replicas !== undefined).map((object) => object.metadata.name),
    ).toEqual([]);
  });
});

describe('the Strimzi resources in deploy/strimzi', () => {
  it('run the cluster the production overlay reaches, with the users and the CA where the pods are', () => {
    const cluster = parseAllDocuments(
      execFileSync('kubectl', ['kustomize', join(repoRoot, 'deploy/strimzi')], { encoding: 'utf8' }),
    ).map((document) => document.toJSON() as KubeObject);
    const kafka = cluster.find((object) => object.kind === 'Kafka')!;
    const spec = kafka.spec as {
      kafka: { listeners: Record<string, unknown>[]; authorization: { type: string }; config: Record<string, number> };
      entityOperator: { topicOperator: { watchedNamespace: string }; userOperator: { watchedNamespace: string } };
    };
    // The TLS listener the apps connect to (KAFKA_BROKERS), with SCRAM users and their ACLs.
    expect(kafka.metadata).toMatchObject({ name: 'payments-kafka', namespace: 'payments-data' });
    expect(spec.kafka.listeners).toEqual([
      expect.objectContaining({ port: 9093, tls: true, authentication: { type: 'scram-sha-512' } }),
    ]);
    expect(spec.kafka.authorization.type).toBe('simple');
    expect(spec.kafka.config['min.insync.replicas']).toBe(2);
    const nodes = cluster.find((object) => object.kind === 'KafkaNodePool')!;
    expect((nodes.spec as { replicas: number }).replicas).toBeGreaterThanOrEqual(3);
    // The topics owned here; the users watched where the apps are, so their Secrets appear there.
    expect(spec.entityOperator.topicOperator.watchedNamespace).toBe('payments-data');
    const production = renderOverlay('production');
    const users = production.filter((object) => object.kind === 'KafkaUser');
    expect(users.map((user) => user.metadata.namespace)).toEqual(users.map(() => 'payments'));
    expect(spec.entityOperator.userOperator.watchedNamespace).toBe('payments');
    const mounted = production
      .filter((object) => object.kind === 'Deployment')
      .flatMap(
        (deployment) => (podSpecOf(deployment) as { volumes?: { secret?: { secretName: string } }[] }).volumes ?? [],
      )
      .flatMap((volume) => (volume.secret ? [volume.secret.secretName] : []));
    for (const app of apps) {
      expect([app, mounted.includes(app), users.some((user) => user.metadata.name === app)]).toEqual([app, true, true]);
    }
    // The cluster CA's Secret, copied into the apps' namespace by the one account allowed to read it.
    const copied = production.find(
      (object) => object.kind === 'ExternalSecret' && object.metadata.name === 'payments-kafka-cluster-ca-cert',
    )!;
    expect(copied.spec).toMatchObject({
      secretStoreRef: { kind: 'SecretStore', name: 'kafka-cluster-ca' },
      target: { name: 'payments-kafka-cluster-ca-cert' },
    });
    expect(mounted).toContain('payments-kafka-cluster-ca-cert');
    const reader = cluster.find((object) => object.kind === 'RoleBinding')!;
    expect((reader as unknown as { subjects: unknown[] }).subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kafka-ca-reader', namespace: 'payments' },
    ]);
    expect(
      production.some((object) => object.kind === 'ServiceAccount' && object.metadata.name === 'kafka-ca-reader'),
    ).toBe(true);
    const role = cluster.find((object) => object.kind === 'Role') as unknown as {
      rules: { resourceNames?: string[]; verbs: string[] }[];
    };
    expect(role.rules[0]).toEqual(
      expect.objectContaining({ resourceNames: ['payments-kafka-cluster-ca-cert'], verbs: ['get'] }),
    );
  });

  it("are each app's Kafka user with the ACLs of its declared topics, regenerated with the topics", () => {
    const committed = readFileSync(join(repoRoot, 'deploy/strimzi/users/kafka-users.yaml'), 'utf8');
    expect(committed).toBe(strimziUsersYaml(allTopics));
    const users = parseAllDocuments(committed).map((document) => document.toJS() as KubeObject);
    expect(users.map((user) => user.metadata.name)).toEqual([...apps, 'payments-topics', 'payments-dlq-replay']);
    // The apps' pods mount the Secret Strimzi makes for their user (the secured-kafka component).
    const secrets = renderOverlay('production')
      .filter((object) => object.kind === 'Deployment')
      .flatMap((deployment) =>
        ((podSpecOf(deployment) as { volumes?: { secret?: { secretName: string } }[] }).volumes ?? []).flatMap(
          (volume) => (volume.secret ? [volume.secret.secretName] : []),
        ),
      );
    for (const app of apps) expect(secrets).toContain(app);
  });

  it('are the topic declarations, regenerated (npm run topics:manifests) whenever they change', () => {
    const committed = readFileSync(join(repoRoot, 'deploy/strimzi/kafka-topics.yaml'), 'utf8');
    expect(committed).toBe(strimziTopicsYaml(allTopics));
    const resources = parseAllDocuments(committed).map((document) => document.toJS() as KubeObject);
    expect(resources.map((resource) => resource.metadata.name)).toEqual(allTopics.map((topic) => topic.name));
    for (const resource of resources) {
      expect(resource.spec).toMatchObject({
        replicas: 3,
        config: expect.objectContaining({ 'min.insync.replicas': '2' }),
      });
    }
  });
});
