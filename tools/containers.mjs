// npm run containers: the platform as the platform team ships it, run three ways here with
// podman (no Docker engine is needed) against real Kafka and PostgreSQL, and a partner's smoke
// driven through each: partner created with the operator command, outlet, checkout paid by card,
// terminal registered, POS submission, signed webhooks received.
//
//   1. images:  the five app images built from deploy/Dockerfile, inspected, run one by one on the
//               host's network against the local broker and PostgreSQL, and a development card
//               host of the stage's own on this machine (deploy/card-host), stopped with SIGTERM;
//   2. compose: docker-compose.yml under podman-compose, with its own PostgreSQL, Kafka and card host;
//   3. kube:    the local Kubernetes overlay, rendered and played with `podman kube play`, its card
//               host from the image deploy/card-host/Dockerfile builds.
//
// Prints each image's size and times, then `N passed, N failed` over its checks.
//
//   npm run containers [-- --keep]        --keep leaves the images' containers running afterwards
//   npm run containers -- --stage compose  one stage only (images, compose or kube)
//   node tools/containers.mjs --usable    exits 0 when podman can build and run images here
//   node tools/containers.mjs --image <app>   builds that app's image only (the Nx `container` target)
//
// Installs podman and podman-compose when missing, and makes the images the builds and the
// compose file start from when no registry can provide them (docs/operations.md, "Container images").
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { composeContainer, composeDown, composeHostPort, composeOperator, composeUp } from './containers/compose.mjs';
import {
  cardHostName,
  deploymentContainer,
  forPodman,
  play,
  renderLocalOverlay,
  tearDown,
} from './containers/kube.mjs';
import {
  buildCardHostImage,
  buildImage,
  cardHostImage,
  ensureBaseImages,
  ensureStandInImages,
  imageName,
  podman,
  podmanProblem,
} from './containers/podman.mjs';
import {
  carried,
  carriedScript,
  check,
  checkCardHostApart,
  checks,
  eventually,
  partnerSmoke,
  startReceiver,
  untilReady,
} from './containers/smoke.mjs';
import {
  applyTopics,
  apps,
  dataDir,
  ensureBuild,
  ensureCardHost,
  ensureDependencies,
  ensureKafka,
  log,
  onPostgres,
  recreateDatabase,
  root,
  stopCardHost,
  stopKafka,
} from './lib.mjs';
import { pinnedNode } from './supported-node.mjs';

const stages = ['images', 'compose', 'kube'];
const { values } = parseArgs({
  options: {
    usable: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    image: { type: 'string' },
    stage: { type: 'string', multiple: true, default: stages },
  },
});

const containerName = (app) => `payments-smoke-${app}`;
// Ports of their own, so a platform started with `npm start` can run beside the smoke.
const smokePort = (app) => 15000 + apps.findIndex((candidate) => candidate.name === app);
const kubePort = (app) => 15200 + apps.findIndex((candidate) => candidate.name === app);
// The development card hosts card-processor authorises cards with, on ports of their own beside
// this machine's (8583 and 8584): the images stage's runs on this machine (deploy/card-host),
// started fresh each run; the kube stage's is the overlay's card-host pod.
const imagesCardHost = { port: 13783, controlPort: 13784, dataDir: join(dataDir, 'card-host-containers') };
const kubeCardHost = { port: 15283, controlPort: 15284 };
const localKafka = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';

function removeContainers() {
  for (const { name } of apps) podman(['rm', '--force', '--time', '0', containerName(name)]);
}

/** Starts an app's container on the host network; resolves with seconds to /health/ready. */
async function startContainer(app, env) {
  const started = Date.now();
  const flags = Object.entries({ ...env, PORT: String(smokePort(app)), SERVICE_NAME: app }).flatMap(([name, value]) => [
    '-e',
    `${name}=${value}`,
  ]);
  const ran = podman(['run', '--detach', '--network', 'host', '--name', containerName(app), ...flags, imageName(app)]);
  if (ran.status !== 0) throw new Error(`starting ${app} failed: ${ran.stderr}`);
  try {
    await untilReady(`http://127.0.0.1:${smokePort(app)}/health/ready`);
  } catch (error) {
    throw new Error(`${error.message}:\n${podman(['logs', '--tail', '30', containerName(app)]).stderr}`);
  }
  return (Date.now() - started) / 1000;
}

/** Runs an operator command in a running container, as docs/deploy.md shows (kubectl exec … -- payments …). */
function execOperator(container, command, args) {
  const result = podman(['exec', container, 'payments', command, ...args]);
  if (result.status !== 0) throw new Error(`${command} in ${container} failed: ${result.stderr}`);
  return result.stdout;
}

/** The operator commands each image must carry (docs/deploy.md, "Operator commands"). */
const operatorCommands = {
  'checkout-gateway': ['partner-create', 'partner-keys-roll', 'rate-limit-set'],
  'outlet-service': ['pricing-set'],
  'pos-ingest': ['terminal-register', 'terminal-audit', 'pos-send', 'rate-limit-set'],
};

/** `payments help` in a one-off container of the image lists every command it must carry. */
function checkOperatorCommands(app) {
  const help = podman(['run', '--rm', '--network', 'none', imageName(app), 'help']).stdout;
  const missing = ['migrate', 'keys-reseal', 'topics-apply', 'dlq-replay', ...(operatorCommands[app] ?? [])].filter(
    (command) => !help.split(/\s+/).includes(command),
  );
  check(`${app}: carries its operator commands`, missing.length === 0, `missing ${missing.join(', ')} in: ${help}`);
}

/** What the images must and must not carry, read from the built images. */
function inspectImage(app) {
  const [user] = podman(['image', 'inspect', '--format', '{{.Config.User}}', imageName(app)])
    .stdout.trim()
    .split('\n');
  check(`${app}: runs as a non-root user`, user !== '' && user !== 'root' && user !== '0', `user is "${user}"`);
  const devDependencies = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies);
  const script = [
    // Our own source maps, npm configuration (it may hold tokens), env files, TypeScript sources.
    'find /app -path /app/node_modules -prune -o \\( -name "*.map" -o -name ".npmrc" -o -name "*.env" -o -name "*.ts" ! -name "*.d.ts" \\) -print',
    `for name in ${devDependencies.join(' ')}; do test -e "node_modules/$name/package.json" && echo "dev dependency $name"; done`,
    carriedScript,
  ].join('; ');
  const found = podman([
    'run',
    '--rm',
    '--network',
    'none',
    '--entrypoint',
    'sh',
    imageName(app),
    '-c',
    `${script}; true`,
  ]);
  const { apps: carriedApps, cardHost, other: leftovers } = carried(found.stdout);
  check(
    `${app}: no source maps, npm config, env files, sources or dev dependencies`,
    leftovers.length === 0,
    leftovers.slice(0, 10).join(', '),
  );
  check(
    `${app}: carries its own app and no other`,
    carriedApps.length === 1 && carriedApps[0] === app,
    carriedApps.join(', '),
  );
  check(`${app}: carries nothing of the card host (jPOS is AGPL)`, cardHost.length === 0, cardHost.join(', '));
  checkOperatorCommands(app);
  const node = podman(['run', '--rm', '--network', 'none', '--entrypoint', 'node', imageName(app), '--version']);
  const major = pinnedNode.split('.')[0];
  check(`${app}: runs on Node.js ${major}`, node.stdout.trim().startsWith(`v${major}.`), node.stdout.trim());
  return Number(podman(['image', 'inspect', '--format', '{{.Size}}', imageName(app)]).stdout.trim());
}

/** SIGTERM through podman stop: each app must exit 0 well before podman would SIGKILL it. */
function stopCleanly() {
  const stopped = {};
  for (const { name } of apps) {
    const started = Date.now();
    podman(['stop', '--time', '20', containerName(name)]);
    const exitCode = podman(['inspect', '--format', '{{.State.ExitCode}}', containerName(name)]).stdout.trim();
    stopped[name] = (Date.now() - started) / 1000;
    check(
      `${name}: stops cleanly on SIGTERM`,
      exitCode === '0' && stopped[name] < 20,
      `exit code ${exitCode} after ${stopped[name]} s`,
    );
  }
  return stopped;
}

/** Stage 1: each app's image run on its own on the host's network, against the local broker and PostgreSQL. */
async function imagesStage(receiver, figures) {
  const database = 'payments_containers';
  await recreateDatabase(database);
  removeContainers();
  // A card host of the stage's own, with no journal: the fresh database draws RRNs from the start again.
  const zonePinKey = randomBytes(16).toString('hex').toUpperCase();
  stopCardHost(imagesCardHost);
  rmSync(imagesCardHost.dataDir, { recursive: true, force: true });
  log(`starting the development card host on 127.0.0.1:${imagesCardHost.port}`);
  if (!ensureCardHost({ ...process.env, CARD_NETWORK_SANDBOX_ZONE_PIN_KEY: zonePinKey }, imagesCardHost))
    throw new Error(`something else listens on 127.0.0.1:${imagesCardHost.port}, where the card host goes`);
  try {
    await imagesSmoke(receiver, figures, database, zonePinKey);
  } finally {
    if (values.keep) log(`the card host is left running: CARD_HOST_DATA_DIR=${imagesCardHost.dataDir}`);
    else stopCardHost(imagesCardHost);
  }
}

async function imagesSmoke(receiver, figures, database, zonePinKey) {
  const env = {
    NODE_ENV: 'production',
    TRUSTED_PROXIES: 'none', // nothing stands in front of the containers here
    LOG_LEVEL: 'info',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    KAFKA_BROKERS: localKafka,
    API_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    POS_KEY_SEALING_KEY: randomBytes(32).toString('base64'),
    PAGE_CURSOR_KEY: randomBytes(32).toString('base64'),
    MEMBER_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SECRET_SEALING_KEY: randomBytes(32).toString('base64'),
    CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
    CARD_DATA_KEY: randomBytes(32).toString('base64'),
    POS_REFERENCE_KEY: randomBytes(32).toString('base64'),
    CHECKOUT_URL: `http://127.0.0.1:${smokePort('checkout-gateway')}/checkout`,
  };
  // The receiver listens on this machine, a private address production refuses: the apps that
  // set and deliver to webhook URLs opt in as local development does (docs/webhooks.md).
  const localReceivers = { NODE_ENV: 'development', WEBHOOK_SANDBOX_ALLOW_PRIVATE: 'true' };
  const envOf = {
    'checkout-gateway': { ...env, ...localReceivers },
    'webhook-dispatcher': { ...env, ...localReceivers },
    // Sandbox businesses' cards go to the stage's card host.
    'card-processor': {
      ...env,
      CARD_NETWORK_SANDBOX_ADDRESS: `127.0.0.1:${imagesCardHost.port}`,
      CARD_NETWORK_SANDBOX_ZONE_PIN_KEY: zonePinKey,
    },
  };
  // One at a time, so each time to ready is the app's own and not a share of a crowded start.
  for (const { name } of apps) {
    log(`starting ${name}`);
    figures[name].ready = await startContainer(name, envOf[name] ?? env);
  }
  const migrated = execOperator(containerName('outlet-service'), 'migrate', []);
  check(
    'images: migrate run inside the outlet-service container',
    /outlet-service: up to date/.test(migrated),
    migrated,
  );
  await partnerSmoke({
    label: 'images',
    gatewayUrl: `http://127.0.0.1:${smokePort('checkout-gateway')}`,
    posUrl: `http://127.0.0.1:${smokePort('pos-ingest')}`,
    operator: (app, command, args) => execOperator(containerName(app), command, args),
    receiver,
    webhookUrl: receiver.urlFrom('127.0.0.1'),
    cardHostUrl: `http://127.0.0.1:${imagesCardHost.controlPort}`,
  });

  const logs = apps
    .map(({ name }) => podman(['logs', containerName(name)]))
    .map((result) => result.stdout + result.stderr)
    .join('\n');
  check('images: no card number in any container log', !/5060990000000000019|5061460410120223210/.test(logs));
  if (values.keep) return;
  for (const [name, seconds] of Object.entries(stopCleanly())) figures[name].stop = seconds;
  removeContainers();
}

/** Each app of a deployment answers ready on the port it listens on here. */
async function checkReady(label, portOf) {
  for (const { name } of apps) {
    const ready = await untilReady(`http://127.0.0.1:${portOf(name)}/health/ready`, 180_000).then(
      () => true,
      (error) => error.message,
    );
    check(`${label}: ${name} ready`, ready === true, ready);
  }
}

/** Stage 2: docker-compose.yml under podman-compose, partners onboarded with its documented command. */
async function composeStage(receiver) {
  ensureStandInImages();
  try {
    log('docker-compose.yml: building and starting under podman-compose');
    await composeUp();
    await checkReady('compose', composeHostPort);
    checkCardHostApart(
      'compose',
      composeContainer(cardHostName),
      Object.fromEntries(apps.map(({ name }) => [name, composeContainer(name)])),
    );
    await partnerSmoke({
      label: 'compose',
      gatewayUrl: `http://127.0.0.1:${composeHostPort('checkout-gateway')}`,
      posUrl: `http://127.0.0.1:${composeHostPort('pos-ingest')}`,
      operator: composeOperator,
      receiver,
      // Containers on the compose network reach this machine by podman's name for it.
      webhookUrl: receiver.urlFrom('host.containers.internal'),
      cardHostUrl: `http://127.0.0.1:${composeHostPort('card-host-control')}`,
    });
  } finally {
    composeDown();
  }
}

/** The app roles the local overlay's Secrets log in as (docs/deploy.md, "Least privilege in PostgreSQL"). */
async function ensureAppRoles() {
  await onPostgres(async (admin) => {
    for (const { name } of apps) {
      const role = name.replaceAll('-', '_');
      const { rowCount } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      if (rowCount === 0) await admin.query(`CREATE ROLE "${role}" LOGIN PASSWORD 'local-only'`);
    }
  });
}

/** Stage 3: the local overlay as `kubectl apply -k` renders it, played by podman: the migration Job first, then the apps. */
async function kubeStage(receiver) {
  const database = 'payments_kube';
  await recreateDatabase(database);
  await ensureAppRoles();
  // The overlay's card host runs from an image built here, as a laptop cluster's would be.
  ensureStandInImages(['maven']);
  log(`building ${cardHostImage}`);
  log(`${cardHostImage} built in ${buildCardHostImage().toFixed(0)} s`);
  const { migrate, apps: appPods } = await forPodman(await renderLocalOverlay(), {
    database: `postgres://127.0.0.1:5432/${database}`,
    kafkaBrokers: localKafka,
    portOf: kubePort,
    cardHost: kubeCardHost,
  });
  const files = [];
  try {
    files.push(play('kube-migrate', migrate.text));
    const migrated = await eventually(() => {
      const [status, code] = podman(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', migrate.container])
        .stdout.trim()
        .split(' ');
      return status === 'exited' ? code : undefined;
    }, 180_000);
    const migrationLogs = podman(['pod', 'logs', migrate.pod]);
    check(
      'kube: the migration Job ran to completion',
      migrated === '0',
      `${migrated === undefined ? 'still running after 180 s' : `exit ${migrated}`}:\n${(migrationLogs.stdout + migrationLogs.stderr).slice(-2000)}`,
    );
    files.push(play('kube-apps', appPods));
    await checkReady('kube', kubePort);
    const hostReady = await untilReady(`http://127.0.0.1:${kubeCardHost.controlPort}/health`).then(
      () => true,
      (error) => error.message,
    );
    check('kube: card-host ready', hostReady === true, hostReady);
    checkCardHostApart(
      'kube',
      deploymentContainer(cardHostName),
      Object.fromEntries(apps.map(({ name }) => [name, deploymentContainer(name)])),
    );
    // The Deployments' securityContext, as podman applied it.
    const security = podman([
      'inspect',
      '--format',
      '{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}',
      deploymentContainer('checkout-gateway'),
    ]).stdout.trim();
    check(
      'kube: pods run as uid and gid 1000 on a read-only root file system',
      security === '1000:1000 true',
      security,
    );
    await partnerSmoke({
      label: 'kube',
      gatewayUrl: `http://127.0.0.1:${kubePort('checkout-gateway')}`,
      posUrl: `http://127.0.0.1:${kubePort('pos-ingest')}`,
      operator: (app, command, args) => execOperator(deploymentContainer(app), command, args),
      receiver,
      webhookUrl: receiver.urlFrom('127.0.0.1'),
      cardHostUrl: `http://127.0.0.1:${kubeCardHost.controlPort}`,
    });
  } finally {
    for (const file of files.reverse()) tearDown(file);
  }
}

const problem = podmanProblem();
if (values.usable) {
  if (problem) log(`podman is not usable here: ${problem}`);
  process.exit(problem ? 1 : 0);
}
if (problem) {
  log(`podman is not usable here: ${problem}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

if (values.image) {
  if (!apps.some(({ name }) => name === values.image)) {
    log(`--image must name an app: ${apps.map(({ name }) => name).join(', ')}`);
    process.exit(2);
  }
  ensureBaseImages();
  const seconds = buildImage(values.image);
  log(`${imageName(values.image)} built in ${seconds.toFixed(0)} s`);
  process.exit(0);
}

const unknownStages = values.stage.filter((stage) => !stages.includes(stage));
if (unknownStages.length > 0) {
  log(`--stage must be one of ${stages.join(', ')}`);
  process.exit(2);
}

let startedKafka = false;
let receiver;
const figures = Object.fromEntries(apps.map(({ name }) => [name, {}]));
try {
  ensureDependencies();
  ensureBuild(); // the smoke encrypts POS payloads with the built crypto library
  startedKafka = ensureKafka();
  applyTopics();
  ensureBaseImages();
  receiver = await startReceiver();
  if (values.stage.includes('images') || values.stage.includes('kube'))
    for (const { name } of apps) {
      log(`building ${imageName(name)}`);
      figures[name].build = buildImage(name);
      figures[name].size = inspectImage(name);
    }
  const run = { images: imagesStage, compose: composeStage, kube: kubeStage };
  for (const stage of stages.filter((name) => values.stage.includes(name))) {
    try {
      await run[stage](receiver, figures);
    } catch (error) {
      check(`${stage}: ran to the end`, false, error.message);
    }
  }

  if (values.stage.includes('images')) {
    console.log('\n| image | size MB | build s | ready s | stop s |\n|---|---|---|---|---|');
    const figure = (value, digits) => (value === undefined ? '-' : value.toFixed(digits));
    for (const { name } of apps) {
      const { size, build, ready, stop } = figures[name];
      console.log(
        `| ${imageName(name)} | ${figure(size / 1e6, 0)} | ${figure(build, 0)} | ${figure(ready, 1)} | ${values.keep ? 'kept' : figure(stop, 1)} |`,
      );
    }
    console.log('');
  }
} catch (error) {
  log(`containers: ${error.message}`);
  checks.failed += 1;
} finally {
  await receiver?.close();
  podman(['image', 'prune', '--force']); // the untagged images earlier builds left
  if (startedKafka) stopKafka(); // a broker it found running is left as it was
}
console.log(`${checks.passed} passed, ${checks.failed} failed`);
process.exit(checks.failed === 0 && checks.passed > 0 ? 0 : 1);
