// docker-compose.yml as Docker users run it, under Debian's podman-compose: the same file, its
// images built, its services brought up in the order its conditions ask for, and the operator
// commands run as docs/deploy.md shows them (`docker compose run --rm <service> <command>`).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { apps, root } from '../lib.mjs';
import { containersDir, podman, podmanEnv } from './podman.mjs';
import { eventually } from './smoke.mjs';

const project = 'payments-smoke';

/**
 * Host ports of their own (the file's defaults are 3000 to 3004, 5432, and the card host's 8583
 * and 8584), so a platform started with `npm start`, and its card host, can run beside it.
 */
const otherHostPorts = { postgres: 15190, 'card-host': 15183, 'card-host-control': 15184 };
export const composeHostPort = (service) =>
  otherHostPorts[service] ?? 15100 + apps.findIndex(({ name }) => name === service);
const hostPortVariable = (service) => `${service.toUpperCase().replaceAll('-', '_')}_HOST_PORT`;

/**
 * What the run changes, and only through the file's own extension points: the host ports
 * (variables), and an override that lets the two apps that set and deliver webhook URLs accept
 * the private address of this machine's receiver, as local development does (docs/webhooks.md).
 */
function composeFiles() {
  const override = join(containersDir, 'compose.override.yml');
  const localReceivers = { NODE_ENV: 'development', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' };
  writeFileSync(
    override,
    JSON.stringify({
      services: {
        'checkout-gateway': { environment: localReceivers },
        'webhook-dispatcher': { environment: localReceivers },
      },
    }),
  );
  return ['-f', join(root, 'docker-compose.yml'), '-f', override];
}

export function podmanCompose(args) {
  const ports = Object.fromEntries(
    [...Object.keys(otherHostPorts), ...apps.map(({ name }) => name)].map((service) => [
      hostPortVariable(service),
      String(composeHostPort(service)),
    ]),
  );
  const result = spawnSync('podman-compose', ['-p', project, ...composeFiles(), ...args], {
    cwd: root,
    env: { ...podmanEnv(), ...ports },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`podman-compose ${args.join(' ')} failed:\n${(result.stdout + result.stderr).slice(-4000)}`);
  return result.stdout;
}

/** podman-compose names a service's container `<project>_<service>_1`. */
export const composeContainer = (service) => `${project}_${service}_1`;

/** Waits until the compose file's own health check passes in the service's container. */
async function untilHealthy(service) {
  const healthy = await eventually(
    () => (podman(['healthcheck', 'run', composeContainer(service)]).status === 0 ? true : undefined),
    120_000,
  );
  if (!healthy) throw new Error(`${service} was not healthy within 120 s`);
}

/**
 * Builds the file's images and brings its services up as Docker Compose orders them:
 * PostgreSQL, Kafka and the card host healthy, then `topics` run to completion, then the apps.
 * (podman-compose 1.0 starts services in dependency order but does not wait for their conditions.)
 */
export async function composeUp() {
  composeDown();
  // As every build here: on the host's network (the card host's fetches jPOS from Maven Central),
  // from the images made here (tools/containers/podman.mjs), never pulling.
  podmanCompose(['--podman-build-args=--network host --pull=never', 'build']);
  podmanCompose(['up', '-d', '--no-build', 'postgres', 'kafka', 'card-host']);
  for (const service of ['postgres', 'kafka', 'card-host']) await untilHealthy(service);
  podmanCompose(['up', '-d', '--no-build', '--no-deps', 'topics']);
  const topics = podman(['wait', composeContainer('topics')]).stdout.trim();
  if (topics !== '0')
    throw new Error(
      `topics exited with ${topics}:\n${podman(['logs', '--tail', '30', composeContainer('topics')]).stderr}`,
    );
  podmanCompose(['up', '-d', '--no-build', '--no-deps', ...apps.map(({ name }) => name)]);
}

/** The documented way to run an operator command: a one-off container of the service. */
export const composeOperator = (service, command, args) =>
  podmanCompose(['run', '--rm', '-T', '--no-deps', service, command, ...args]);

export function composeDown() {
  spawnSync('podman-compose', ['-p', project, ...composeFiles(), 'down', '-v', '-t', '20'], {
    cwd: root,
    env: podmanEnv(),
    stdio: 'ignore',
  });
  podman(['network', 'rm', '--force', `${project}_default`]);
}
