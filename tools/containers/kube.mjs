// The local Kubernetes overlay, rendered as `kubectl apply -k` would send it, played by podman on
// the host's network against this machine's broker and PostgreSQL. podman plays Pods,
// Deployments and ConfigMaps; what it cannot play is dropped or rewritten here, each for the
// reason given (docs/deploy.md, "Trying the manifests without a cluster").
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { root } from '../lib.mjs';
import { containersDir, podman } from './podman.mjs';

/** Kinds a cluster's controllers act on and podman has no counterpart for. */
export const unplayedKinds = [
  'Namespace',
  'ServiceAccount',
  'Service',
  'Ingress',
  'NetworkPolicy',
  'HorizontalPodAutoscaler',
  'ScaledObject',
  'PodDisruptionBudget',
  'PodMonitor',
  'PrometheusRule',
  // The card reconciliation's schedule; `npm run reconcile` is the same run by hand.
  'CronJob',
];

/** The development card host's Deployment, container and Service (deploy/k8s/overlays/local/card-host.yaml). */
export const cardHostName = 'card-host';

export async function renderLocalOverlay() {
  // Loaded when used: this module is imported before the command installs dependencies.
  const { parseAllDocuments } = await import('yaml');
  const rendered = spawnSync('kubectl', ['kustomize', join(root, 'deploy/k8s/overlays/local')], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (rendered.status !== 0) throw new Error(`kubectl kustomize failed: ${rendered.stderr}`);
  return parseAllDocuments(rendered.stdout).map((document) => document.toJS());
}

const decode = (value) => Buffer.from(value, 'base64').toString('utf8');

/**
 * The overlay as podman can play it here:
 * - Secret values are written into the env entries that read them (podman 4.3 cannot resolve a
 *   secretKeyRef to a Secret in the played file), their PostgreSQL URLs pointed at `database`;
 * - every pod shares the host's network, so Kafka is `kafkaBrokers`, each app listens on
 *   `portOf(app)` and the development card host on `cardHost.port` and `cardHost.controlPort`
 *   (not its 8583 and 8584, which a host of this machine's own may hold), their probes on those
 *   ports, and card-processor reaches the host there instead of at its Service (`card-host:8583`);
 * - the migration Job becomes a Pod that runs once (podman plays no Jobs);
 * - the apps that set and deliver webhook URLs accept the private address of this machine's
 *   receiver, as local development does (docs/webhooks.md).
 * Returns the migration Pod (the file's text, the pod's name and its main container's) and the
 * Deployments with their ConfigMaps (a file's text).
 */
export async function forPodman(objects, { database, kafkaBrokers, portOf, cardHost }) {
  const secrets = Object.fromEntries(
    objects
      .filter(({ kind }) => kind === 'Secret')
      .map(({ metadata, data = {} }) => [
        metadata.name,
        Object.fromEntries(Object.entries(data).map(([key, value]) => [key, decode(value)])),
      ]),
  );
  const secretValue = ({ name, key }) => {
    const value = secrets[name]?.[key];
    if (value === undefined) throw new Error(`the overlay reads ${name}/${key}, which it does not render`);
    if (!value.startsWith('postgres://')) return value;
    const url = new URL(value);
    const local = new URL(database);
    url.host = local.host;
    url.pathname = local.pathname;
    return url.toString();
  };
  // Where each container listens here, by the name of its container port, and the settings that say so.
  const listening = (container) => {
    if (container.name === cardHostName)
      return {
        ports: { iso: cardHost.port, control: cardHost.controlPort },
        settings: { CARD_HOST_PORT: cardHost.port, CARD_HOST_CONTROL_PORT: cardHost.controlPort },
      };
    const [http] = container.ports ?? [];
    return http
      ? { ports: { [http.name]: portOf(container.name) }, settings: { PORT: portOf(container.name) } }
      : { ports: {}, settings: {} };
  };
  const playable = (container) => {
    const { ports, settings } = listening(container);
    const env = (container.env ?? [])
      .filter(({ name }) => !(name in settings))
      .map((variable) =>
        variable.valueFrom?.secretKeyRef
          ? { name: variable.name, value: secretValue(variable.valueFrom.secretKeyRef) }
          : variable,
      )
      .concat(Object.entries(settings).map(([name, value]) => ({ name, value: String(value) })));
    // A probe's port (a container port's name or number) as it listens here.
    const localPort = (port) => {
      const name = typeof port === 'string' ? port : container.ports?.find((each) => each.containerPort === port)?.name;
      if (ports[name] === undefined) throw new Error(`${container.name} probes port ${port}, which it does not name`);
      return ports[name];
    };
    // On the host's network podman refuses port mappings: the probes name the port by number.
    const rest = { ...container };
    delete rest.ports;
    const probes = Object.fromEntries(
      ['startupProbe', 'livenessProbe', 'readinessProbe']
        .filter((probe) => container[probe])
        .map((probe) => {
          const [kind] = ['httpGet', 'tcpSocket'].filter((each) => container[probe][each]);
          if (!kind) return [probe, container[probe]];
          return [
            probe,
            {
              ...container[probe],
              [kind]: { ...container[probe][kind], port: localPort(container[probe][kind].port) },
            },
          ];
        }),
    );
    return { ...rest, env, ...probes };
  };
  const onHostNetwork = (spec) => ({
    ...spec,
    hostNetwork: true,
    containers: spec.containers.map(playable),
    ...(spec.initContainers ? { initContainers: spec.initContainers.map(playable) } : {}),
  });

  // podman lets envFrom override env (Kubernetes does the reverse): settings change in the ConfigMaps.
  const localSettings = (data) => ({
    ...data,
    ...(data.KAFKA_BROKERS ? { KAFKA_BROKERS: kafkaBrokers } : {}),
    ...(data.CARD_NETWORK_SANDBOX_ADDRESS === `${cardHostName}:8583`
      ? { CARD_NETWORK_SANDBOX_ADDRESS: `127.0.0.1:${cardHost.port}` }
      : {}),
    ...(data.WEBHOOK_SANDBOX_ALLOW_PRIVATE ? { WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true', NODE_ENV: 'development' } : {}),
  });
  const configMaps = objects
    .filter(({ kind }) => kind === 'ConfigMap')
    .map((map) => ({ ...map, data: localSettings(map.data ?? {}) }));
  const deployments = objects
    .filter(({ kind }) => kind === 'Deployment')
    .map((deployment) => ({
      ...deployment,
      spec: {
        ...deployment.spec,
        template: { ...deployment.spec.template, spec: onHostNetwork(deployment.spec.template.spec) },
      },
    }));
  const migrations = objects
    .filter(({ kind }) => kind === 'Job')
    .map((job) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: job.metadata.name, labels: job.spec.template.metadata?.labels },
      spec: { ...onHostNetwork(job.spec.template.spec), restartPolicy: 'Never' },
    }));
  const unknown = objects.filter(
    ({ kind }) => !['Secret', 'ConfigMap', 'Deployment', 'Job', ...unplayedKinds].includes(kind),
  );
  if (unknown.length > 0)
    throw new Error(
      `the overlay renders kinds nothing here plays or drops: ${unknown.map(({ kind }) => kind).join(', ')}`,
    );
  const { stringify } = await import('yaml');
  const text = (documents) => documents.map((document) => stringify(document)).join('---\n');
  if (migrations.length !== 1) throw new Error(`the overlay renders ${migrations.length} migration Jobs, not one`);
  const [migration] = migrations;
  return {
    migrate: {
      text: text([...configMaps, migration]),
      pod: migration.metadata.name,
      container: `${migration.metadata.name}-${migration.spec.containers[0].name}`,
    },
    apps: text([...configMaps, ...deployments]),
  };
}

/** Plays a file of pods; returns the path it wrote, for `podman kube down`. */
export function play(name, text) {
  const file = join(containersDir, `${name}.yaml`);
  writeFileSync(file, text);
  podman(['kube', 'down', file]);
  const played = podman(['kube', 'play', file]);
  if (played.status !== 0) throw new Error(`podman kube play ${name} failed:\n${played.stdout}${played.stderr}`);
  return file;
}

export const tearDown = (file) => podman(['kube', 'down', file]);

/** podman names a played Deployment's (first) pod `<name>-pod-0` and its containers `<pod>-<container>`. */
export const deploymentContainer = (app) => `${app}-pod-0-${app}`;
