import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { InvalidEnvironmentError, loadEnv, PlatformEnv, trustedProxies } from '@payments/platform-config';
import { parseAllDocuments } from 'yaml';

import { repoRoot, unreadOrMisplacedVariables } from './compose';

export const overlays = ['local', 'production'] as const;
export type Overlay = (typeof overlays)[number];

/** A rendered Kubernetes object, as plain data. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: { name: string; key: string };
    secretKeyRef?: { name: string; key: string };
  };
}

export interface KubeContainer {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  startupProbe?: { httpGet?: { path: string; port: string | number } };
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
}

export interface KubePodSpec {
  containers: KubeContainer[];
  initContainers?: KubeContainer[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean };
}

/**
 * The secrets an overlay expects to exist in the cluster (production creates them out of band),
 * with stand-in values of the right form, so an app's validation can still be run on the rest.
 */
export const externalSecrets: Record<string, Record<string, string>> = {
  'payments-database-owner': {
    url: 'postgres://payments:secret@payments.postgres.example.ng:5432/payments?sslmode=verify-full&sslrootcert=/etc/postgresql/ca.crt',
  },
  'payments-database': Object.fromEntries(
    ['checkout-gateway', 'card-processor', 'pos-ingest', 'outlet-service', 'webhook-dispatcher'].map(
      // A managed PostgreSQL, its certificate verified against the CA the pods mount (components/managed-postgres).
      (login) => [
        login,
        `postgres://${login.replace(/-/g, '_')}:secret@payments.postgres.example.ng:5432/payments?sslmode=verify-full&sslrootcert=/etc/postgresql/ca.crt`,
      ],
    ),
  ),
  'payments-keys': {
    API_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    POS_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    PAGE_CURSOR_KEY: randomBytes(32).toString('base64'),
    MEMBER_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
    CARD_DATA_KEY: randomBytes(32).toString('base64'),
    POS_REFERENCE_KEY: randomBytes(32).toString('base64'),
    CARD_NETWORK_SANDBOX_ZONE_PIN_KEY: randomBytes(16).toString('hex'),
    PIN_MASTER_KEY: randomBytes(32).toString('base64'),
    CARD_NETWORK_LIVE_ZONE_PIN_KEY: randomBytes(16).toString('hex'),
  },
};

const rendered = new Map<Overlay, KubeObject[]>();

/** `kubectl kustomize deploy/k8s/overlays/<overlay>`, parsed (once per overlay and process). */
export function renderOverlay(overlay: Overlay): KubeObject[] {
  if (!rendered.has(overlay)) rendered.set(overlay, kustomize(resolve(repoRoot, 'deploy/k8s'), overlay));
  return rendered.get(overlay)!;
}

/**
 * The overlay as a later release renders it: deploy/k8s copied aside, its kustomization.yaml
 * edited by `edit` (what `kustomize edit set image` or a change of a setting does), rendered.
 */
export function renderOverlayEdited(overlay: Overlay, edit: (kustomization: string) => string): KubeObject[] {
  // deploy/k8s with what it includes from beside it (deploy/strimzi/users).
  const deploy = mkdtempSync(join(tmpdir(), 'k8s-release-'));
  const copy = join(deploy, 'k8s');
  cpSync(resolve(repoRoot, 'deploy/k8s'), copy, { recursive: true });
  cpSync(resolve(repoRoot, 'deploy/strimzi'), join(deploy, 'strimzi'), { recursive: true });
  const file = join(copy, 'overlays', overlay, 'kustomization.yaml');
  const before = readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit changed nothing in the ${overlay} overlay`);
  writeFileSync(file, after);
  return kustomize(copy, overlay);
}

/** The overlay as the next release renders it: every image of the overlay at `tag`. */
export function renderOverlayAtTag(overlay: Overlay, tag: string): KubeObject[] {
  return renderOverlayEdited(overlay, (text) => text.replace(/newTag: [^,}\n]+/g, `newTag: '${tag}'`));
}

function kustomize(tree: string, overlay: Overlay): KubeObject[] {
  const yaml = execFileSync('kubectl', ['kustomize', join(tree, 'overlays', overlay)], { encoding: 'utf8' });
  return parseAllDocuments(yaml).map((document) => document.toJSON() as KubeObject);
}

export function podSpecOf(object: KubeObject): KubePodSpec {
  return (object.spec as { template: { spec: KubePodSpec } }).template.spec;
}

/** The environment a container starts with: its own variables, its config maps and its secrets. */
export function containerEnvironment(objects: KubeObject[], container: KubeContainer): Record<string, string> {
  const configMap = (name: string) => objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name)?.data;
  const secret = (name: string, key: string) => {
    // A generated Secret's name carries a hash after its own: payments-database, not payments-database-owner.
    const found = objects.find(
      (o) =>
        o.kind === 'Secret' &&
        (o.metadata.name === name ||
          (/^-[a-z0-9]{10}$/.test(o.metadata.name.slice(name.length)) && o.metadata.name.startsWith(name))),
    );
    if (found?.data?.[key] !== undefined) return Buffer.from(found.data[key], 'base64').toString('utf8');
    const external = externalSecrets[name];
    return external?.[key];
  };
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(environment, configMap(source.configMapRef.name) ?? {});
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    const value =
      variable.value ??
      (from?.configMapKeyRef && configMap(from.configMapKeyRef.name)?.[from.configMapKeyRef.key]) ??
      (from?.secretKeyRef && secret(from.secretKeyRef.name, from.secretKeyRef.key));
    if (value === undefined) throw new Error(`${container.name}: ${variable.name} refers to nothing`);
    environment[variable.name] = value;
  }
  return environment;
}

/**
 * Settings that name a file outside every volume the container mounts: each `*_FILE`, and the
 * CA a database URL verifies the server with (`sslrootcert`).
 */
export function unmountedFiles(container: KubeContainer, environment: Record<string, string>): string[] {
  const mounts = (container.volumeMounts ?? []).map((mount) => mount.mountPath.replace(/\/$/, ''));
  const files = Object.entries(environment).flatMap(([name, value]): [string, string][] => {
    if (name.endsWith('_FILE')) return [[name, value]];
    const rootCert = name === 'DATABASE_URL' ? new URL(value).searchParams.get('sslrootcert') : null;
    return rootCert ? [[`${name}'s sslrootcert`, rootCert]] : [];
  });
  return files
    .filter(([, path]) => !mounts.some((mount) => path.startsWith(`${mount}/`)))
    .map(([name, path]) => `${container.name}: ${name} names ${path}, under none of its volume mounts`);
}

/** The environment with every `*_FILE` setting pointing at a readable stand-in, as a mounted file would be. */
export function withStandInFiles(environment: Record<string, string>): Record<string, string> {
  const standIn = join(mkdtempSync(join(tmpdir(), 'mounted-')), 'file');
  writeFileSync(standIn, 'stand-in\n');
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => [name, name.endsWith('_FILE') ? standIn : value]),
  );
}

/**
 * What is wrong with an app's Deployment in an overlay, checked against the app's own Env
 * class (the validation it runs at boot), its port and its health routes. Empty when all is well.
 */
export function deploymentProblems<E extends PlatformEnv>(
  overlay: Overlay,
  name: string,
  envClass: new () => E,
): string[] {
  const objects = renderOverlay(overlay);
  const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
  if (!deployment) return [`${overlay}: no Deployment named ${name}`];
  const problems: string[] = [];
  const defaults = new envClass();
  const declared = new Set(Object.keys(defaults));
  const pod = podSpecOf(deployment);
  const container = pod.containers.find((each) => each.name === name);
  if (!container) return [`${overlay}: the Deployment has no container named ${name}`];
  const settings = containerEnvironmentProblems(objects, container, envClass, (env) =>
    servingProblems(name, pod, container, env),
  );
  problems.push(...unmountedFiles(container, settings.environment), ...settings.problems);
  problems.push(...unreadOrMisplacedVariables(name, declared, settings.environment));
  const probes = {
    liveness: container.livenessProbe?.httpGet,
    readiness: container.readinessProbe?.httpGet,
    startup: container.startupProbe?.httpGet,
  };
  const expected = { liveness: '/health/live', readiness: '/health/ready', startup: '/health/live' };
  for (const [probe, path] of Object.entries(expected)) {
    const httpGet = probes[probe as keyof typeof probes];
    if (httpGet?.path !== path || httpGet.port !== 'http') {
      problems.push(`${probe} probe must GET ${path} on port http`);
    }
  }
  return problems.map((problem) => `${overlay}: ${problem}`);
}

/** What a Deployment's app, its settings loaded, gets wrong as a server: its proxies, name, port and drain. */
function servingProblems(name: string, pod: KubePodSpec, container: KubeContainer, env: PlatformEnv): string[] {
  const problems: string[] = [];
  trustedProxies(env); // it takes requests: in production it must name its proxies
  if (env.SERVICE_NAME !== name) problems.push(`SERVICE_NAME is ${env.SERVICE_NAME}`);
  const port = container.ports?.find((each) => each.name === 'http')?.containerPort;
  if (port !== env.PORT) problems.push(`the http port is ${port}, the app listens on ${env.PORT}`);
  const drainSeconds = env.SHUTDOWN_TIMEOUT_MS / 1000 + (container.lifecycle?.preStop?.sleep?.seconds ?? 0);
  if ((pod.terminationGracePeriodSeconds ?? 30) <= drainSeconds) {
    problems.push(`terminationGracePeriodSeconds must exceed the preStop pause and the drain (${drainSeconds} s)`);
  }
  return problems;
}

/**
 * What an app's settings class finds wrong with the environment of a CronJob that runs one of
 * the app's commands (they load the app's settings), in an overlay. Empty when all is well.
 */
export function cronJobEnvironmentProblems<E extends PlatformEnv>(
  overlay: Overlay,
  name: string,
  envClass: new () => E,
): string[] {
  const objects = renderOverlay(overlay);
  const cronJob = objects.find((o) => o.kind === 'CronJob' && o.metadata.name === name);
  if (!cronJob) return [`${overlay}: no CronJob named ${name}`];
  const pod = podSpecOf((cronJob.spec as { jobTemplate: KubeObject }).jobTemplate);
  const container = pod.containers[0];
  const settings = containerEnvironmentProblems(objects, container, envClass);
  // The mounts are looked at once the settings load: until then, those are what to fix.
  const problems = settings.problems.length > 0 ? settings.problems : unmountedFiles(container, settings.environment);
  return problems.map((problem) => `${overlay}: ${problem}`);
}

/**
 * A container's environment, and what its app's settings class finds wrong with it when loaded
 * as at boot (each `environment: …`), or else what `check` finds in the settings. A file a
 * setting names is a mounted secret, which unmountedFiles looks for; a stand-in is read here.
 */
function containerEnvironmentProblems<E extends PlatformEnv>(
  objects: KubeObject[],
  container: KubeContainer,
  envClass: new () => E,
  check: (env: E) => string[] = () => [],
): { environment: Record<string, string>; problems: string[] } {
  const environment = containerEnvironment(objects, container);
  try {
    return { environment, problems: check(loadEnv(envClass, withStandInFiles(environment))) };
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    return { environment, problems: error.problems.map((problem) => `environment: ${problem}`) };
  }
}
