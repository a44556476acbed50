import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { InvalidEnvironmentError, loadEnv, PlatformEnv, trustedProxies } from '@payments/platform-config';
import { parse } from 'yaml';

export const repoRoot = resolve(__dirname, '../../..');

/** The one Dockerfile every app's image is built from, with the app as the build argument APP. */
export const appDockerfile = 'deploy/Dockerfile';

/** Each app's Node.js options (deploy/node-options.json): its NODE_OPTIONS wherever it is deployed. */
function appNodeOptions(): Record<string, string> {
  return JSON.parse(readFileSync(resolve(repoRoot, 'deploy/node-options.json'), 'utf8')) as Record<string, string>;
}

/** The Node.js options `name` runs with in production, as command-line arguments. */
export function nodeOptionsOf(name: string): string[] {
  return appNodeOptions()[name]?.split(/\s+/) ?? [];
}

/**
 * What is wrong with an app's environment beyond its Env class: a variable nothing reads, or
 * NODE_OPTIONS (read by Node.js itself) other than deploy/node-options.json gives the app.
 */
export function unreadOrMisplacedVariables(name: string, declared: Set<string>, environment: Record<string, string>) {
  const problems = Object.keys(environment)
    .filter((key) => !declared.has(key) && key !== 'NODE_OPTIONS')
    .map((key) => `environment: ${key} is not read by the app`);
  const nodeOptions = appNodeOptions()[name];
  if (environment.NODE_OPTIONS !== nodeOptions) {
    problems.push(`environment: NODE_OPTIONS must be ${nodeOptions ?? 'unset'}, as deploy/node-options.json says`);
  }
  return problems;
}

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  ports?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

export function readCompose(): { services: Record<string, ComposeService> } {
  return parse(readFileSync(resolve(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true });
}

/**
 * What is wrong with an app's service in docker-compose.yml, checked against the app's own
 * Env class: the environment must pass the same validation the app runs at boot. Empty when
 * all is well; each entry says what to fix.
 */
export function composeServiceProblems<E extends PlatformEnv>(name: string, envClass: new () => E): string[] {
  const { services } = readCompose();
  const service = services[name];
  if (!service) return [`no service named ${name}`];
  const problems: string[] = [];
  const defaults = new envClass();
  const declared = new Set(Object.keys(defaults));
  const environment = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value)]),
  );

  try {
    const env = loadEnv(envClass, environment);
    trustedProxies(env); // it takes requests: in production it must name its proxies
    if (env.PORT !== defaults.PORT) problems.push(`PORT is ${env.PORT}, the app's port is ${defaults.PORT}`);
    if (!env.KAFKA_BROKERS.split(',').every((broker) => services[broker.split(':')[0]])) {
      problems.push('KAFKA_BROKERS names no compose service');
    }
    if (!services[new URL(env.DATABASE_URL).hostname]) problems.push('DATABASE_URL names no compose service');
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    problems.push(...error.problems.map((problem) => `environment: ${problem}`));
  }
  problems.push(...unreadOrMisplacedVariables(name, declared, environment));
  const published = `\${${name.toUpperCase().replaceAll('-', '_')}_HOST_PORT:-${defaults.PORT}}:${defaults.PORT}`;
  if (!service.ports?.includes(published)) problems.push(`ports must publish ${published}`);
  for (const dependency of ['postgres', 'kafka']) {
    if (service.depends_on?.[dependency]?.condition !== 'service_healthy') {
      problems.push(`must wait for ${dependency} to be healthy`);
    }
  }

  const build = service.build;
  if (build?.context !== '.' || build.dockerfile !== appDockerfile || build.args?.APP !== name) {
    return [...problems, `build must use ${appDockerfile} from the root with the build argument APP: ${name}`];
  }
  return [...problems, ...appDockerfileProblems()];
}

/** What is wrong with the apps' Dockerfile: empty when all is well. */
export function appDockerfileProblems(): string[] {
  const text = readFileSync(resolve(repoRoot, appDockerfile), 'utf8');
  const problems: string[] = [];
  if ((text.match(/^FROM /gm) ?? []).length < 2) problems.push(`${appDockerfile} is not multi-stage`);
  if (!/^ARG APP$/m.test(text)) problems.push(`${appDockerfile} must take the app as the build argument APP`);
  const user = text.match(/^USER (\S+)/m)?.[1];
  if (!user || user === 'root' || user === '0') problems.push(`${appDockerfile} must run as a non-root USER`);
  if (!/^HEALTHCHECK .*/m.test(text)) problems.push(`${appDockerfile} needs a HEALTHCHECK`);
  const entrypoint = readFileSync(resolve(repoRoot, 'tools/runtime/payments.sh'), 'utf8');
  if (!/^ENTRYPOINT \["payments"\]$/m.test(text) || !entrypoint.includes('run "dist/apps/$APP/src/main.js"')) {
    problems.push(`${appDockerfile} does not start the app named by APP through its entry point, payments`);
  }
  return problems;
}
