import { InvalidEnvironmentError, loadEnv, PlatformEnv } from '@payments/platform-config';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

export const repoRoot = resolve(__dirname, '../../..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  ports?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
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
  const environment = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value)]));

  try {
    const env = loadEnv(envClass, environment);
    if (env.PORT !== defaults.PORT) problems.push(`PORT is ${env.PORT}, the app's port is ${defaults.PORT}`);
    if (!env.KAFKA_BROKERS.split(',').every((broker) => services[broker.split(':')[0]])) problems.push('KAFKA_BROKERS names no compose service');
    if (!services[new URL(env.DATABASE_URL).hostname]) problems.push('DATABASE_URL names no compose service');
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    problems.push(...error.problems.map((problem) => `environment: ${problem}`));
  }
  for (const key of Object.keys(environment)) {
    if (!declared.has(key)) problems.push(`environment: ${key} is not read by the app`);
  }
  if (!service.ports?.includes(`${defaults.PORT}:${defaults.PORT}`)) problems.push(`ports must publish ${defaults.PORT}:${defaults.PORT}`);
  for (const dependency of ['postgres', 'kafka']) {
    if (service.depends_on?.[dependency]?.condition !== 'service_healthy') problems.push(`must wait for ${dependency} to be healthy`);
  }

  const dockerfile = service.build?.dockerfile;
  if (service.build?.context !== '.' || dockerfile !== `apps/${name}/Dockerfile`) return [...problems, `build must use apps/${name}/Dockerfile from the root`];
  if (!existsSync(resolve(repoRoot, dockerfile))) return [...problems, `${dockerfile} does not exist`];
  const text = readFileSync(resolve(repoRoot, dockerfile), 'utf8');
  const stages = text.match(/^FROM /gm) ?? [];
  if (stages.length < 2) problems.push(`${dockerfile} is not multi-stage`);
  const user = text.match(/^USER (\S+)/m)?.[1];
  if (!user || user === 'root' || user === '0') problems.push(`${dockerfile} must run as a non-root USER`);
  if (!new RegExp(`^HEALTHCHECK [\\s\\S]*127\\.0\\.0\\.1:${defaults.PORT}/health/live`, 'm').test(text)) {
    problems.push(`${dockerfile} needs a HEALTHCHECK on port ${defaults.PORT}`);
  }
  if (!text.includes(`EXPOSE ${defaults.PORT}`)) problems.push(`${dockerfile} must EXPOSE ${defaults.PORT}`);
  if (!text.includes(`"dist/apps/${name}/src/main.js"`)) problems.push(`${dockerfile} does not start ${name}`);
  return problems;
}
