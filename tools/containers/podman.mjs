// podman as it works on these machines (no Docker engine, no container registry): installed when
// missing, run with runc and rlimits left alone, and every image the builds start FROM made here.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { dataDir, log, root, run } from '../lib.mjs';

export const containersDir = join(dataDir, 'containers');
export const imageName = (app) => `localhost/payments/${app}:dev`;

const nodeBaseImage = 'docker.io/library/node:24-bookworm-slim';
const debianImage = 'localhost/debian:bookworm';
/** What docker-compose.yml pulls, made here from tools/containers/stand-ins when no registry can provide it. */
const standIns = [
  { name: 'postgres', image: 'docker.io/library/postgres:15-alpine' },
  {
    name: 'kafka',
    image: 'docker.io/apache/kafka:3.9.1',
    extra: { libs: '.data/kafka-libs', 'log4j.properties': 'deploy/kafka/log4j.properties' },
  },
  // What the development card host's image builds FROM (deploy/card-host/Dockerfile).
  { name: 'maven', image: 'docker.io/library/maven:3.9-eclipse-temurin-17' },
];

/** podman's settings here: runc, and rlimits left alone (see the notes in docs/operations.md). */
export function podmanEnv() {
  mkdirSync(containersDir, { recursive: true });
  const conf = join(containersDir, 'containers.conf');
  writeFileSync(conf, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
  return { ...process.env, CONTAINERS_CONF: conf };
}

export function podman(args, options = {}) {
  return spawnSync('podman', args, {
    cwd: root,
    env: podmanEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** Debian's packages for images (podman, runc, debootstrap), compose files (podman-compose) and their service names (dnsname). */
const packages = {
  podman: 'podman',
  runc: 'runc',
  debootstrap: 'debootstrap',
  'podman-compose': 'podman-compose',
  '/usr/lib/cni/dnsname': 'golang-github-containernetworking-plugin-dnsname',
};

/** Why podman cannot build and run images here, or null when it can. */
export function podmanProblem() {
  if (process.platform !== 'linux') return 'podman runs Linux containers on Linux only';
  if (process.getuid?.() !== 0)
    return 'podman runs here as root only (rootless podman needs subordinate ids this machine lacks)';
  const missing = Object.entries(packages)
    .filter(([command]) => (command.startsWith('/') ? !existsSync(command) : !onPath(command)))
    .map(([, name]) => name);
  if (missing.length > 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-q'], { env, stdio: 'ignore' });
    const install =
      update.status === 0 && spawnSync('apt-get', ['install', '-y', '-q', ...missing], { env, stdio: 'ignore' });
    if (!install || install.status !== 0) return `apt-get could not install ${missing.join(', ')}`;
  }
  const info = podman(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.status !== 0) return `podman info failed: ${info.stderr.trim().split('\n').pop()}`;
  return null;
}

/** The Debian mirror apt uses, for debootstrap. */
function debianMirror() {
  const sources = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']
    .filter(existsSync)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  return (
    sources.match(/^URIs:\s*(\S+\/debian)\s*$/m)?.[1] ??
    sources.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s+bookworm\b/m)?.[1] ??
    'http://deb.debian.org/debian'
  );
}

const imageExists = (image) => podman(['image', 'exists', image]).status === 0;

function importRootfs(rootfs, image, changes) {
  const flags = changes.map((change) => `--change '${change}'`).join(' ');
  const imported = spawnSync('sh', ['-c', `tar -C '${rootfs}' -c . | podman import ${flags} - ${image}`], {
    env: podmanEnv(),
    encoding: 'utf8',
  });
  if (imported.status !== 0) throw new Error(`podman import of ${image} failed: ${imported.stderr}`);
}

/**
 * The images builds start FROM, made here when no registry can provide them: Debian bookworm
 * (minbase) with this machine's certificate authorities, and on it the apps' base, with the
 * Node.js this command runs on (.nvmrc's) and this machine's npm where the official image keeps
 * them, and its `node` user (uid 1000).
 */
export function ensureBaseImages() {
  if (imageExists(nodeBaseImage) && imageExists(debianImage)) return;
  if (!process.version.startsWith('v24.'))
    throw new Error(`the base image carries the Node.js this runs on, which must be 24.x (found ${process.version})`);
  const npm = [join(dirname(process.execPath), '../lib/node_modules/npm'), '/usr/lib/node_modules/npm'].find((path) =>
    existsSync(join(path, 'package.json')),
  );
  if (!npm) throw new Error('npm is not installed beside node');
  const rootfs = join(containersDir, 'rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  log(`making ${debianImage} and ${nodeBaseImage} locally (debootstrap, a few minutes)`);
  const bootstrapped = spawnSync('debootstrap', ['--variant=minbase', 'bookworm', rootfs, debianMirror()], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (bootstrapped.status !== 0)
    throw new Error(`debootstrap failed:\n${(bootstrapped.stdout + bootstrapped.stderr).slice(-3000)}`);
  // Trust what this machine trusts: its registry traffic may pass through a TLS proxy of its own.
  cpSync('/etc/ssl/certs/ca-certificates.crt', join(rootfs, 'etc/ssl/certs/ca-certificates.crt'));
  run('chroot', [rootfs, 'sh', '-c', 'apt-get clean && rm -rf /var/lib/apt/lists/*'], { quiet: true });
  importRootfs(rootfs, debianImage, ['CMD ["bash"]']);

  cpSync(process.execPath, join(rootfs, 'usr/local/bin/node'));
  cpSync(npm, join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));
  run(
    'chroot',
    [
      rootfs,
      'sh',
      '-c',
      'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
    ],
    { quiet: true },
  );
  importRootfs(rootfs, nodeBaseImage, ['ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt', 'CMD ["node"]']);
  rmSync(rootfs, { recursive: true, force: true });
}

/** Builds an image from a Dockerfile and the repository, from local images only; returns seconds taken. */
function buildFrom(dockerfile, image, buildArgs = []) {
  const started = Date.now();
  const built = podman([
    'build',
    '--network',
    'host',
    '--pull=never',
    '-f',
    dockerfile,
    ...buildArgs,
    '-t',
    image,
    '.',
  ]);
  if (built.status !== 0) throw new Error(`building ${image} failed:\n${(built.stdout + built.stderr).slice(-4000)}`);
  return (Date.now() - started) / 1000;
}

/** Builds an app's image offline from the local base; returns seconds taken. */
export const buildImage = (app) => buildFrom('deploy/Dockerfile', imageName(app), ['--build-arg', `APP=${app}`]);

/**
 * The development card host's image, as the local Kubernetes overlay names it (not one of the
 * platform's images: deploy/card-host/Dockerfile). Its build fetches jPOS from Maven Central.
 */
export const cardHostImage = 'localhost/payments/card-host:dev';
export const buildCardHostImage = () => buildFrom('deploy/card-host/Dockerfile', cardHostImage);

const standInLabel = 'io.payments.stand-in';

/** A digest of a directory's files, names and contents. */
function directoryDigest(directory) {
  const hash = createHash('sha256');
  for (const name of readdirSync(directory).sort()) hash.update(name).update(readFileSync(join(directory, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * docker-compose.yml's PostgreSQL and Kafka images, and the Maven image the card host's image
 * builds FROM, when no registry provides them: stand-ins built from tools/containers/stand-ins
 * and tagged with the names the compose file and the Dockerfile pull, so the same files build
 * and run here as they do with Docker. Their packages come from Debian's mirror. `names` picks
 * some of them (all by default).
 */
export function ensureStandInImages(names = standIns.map(({ name }) => name)) {
  for (const { name, image, extra = {} } of standIns.filter((standIn) => names.includes(standIn.name))) {
    // Rebuilt when its files change: the image carries a digest of them.
    const digest = directoryDigest(join(root, 'tools/containers/stand-ins', name));
    const built = podman(['image', 'inspect', '--format', `{{index .Labels "${standInLabel}"}}`, image]);
    if (built.status === 0 && built.stdout.trim() === digest) continue;
    log(`making a stand-in for ${image} (tools/containers/stand-ins/${name})`);
    const context = join(containersDir, 'stand-ins', name);
    rmSync(context, { recursive: true, force: true });
    cpSync(join(root, 'tools/containers/stand-ins', name), context, { recursive: true });
    for (const [target, source] of Object.entries(extra))
      cpSync(join(root, source), join(context, target), { recursive: true });
    const build = podman([
      'build',
      '--network',
      'host',
      '--pull=never',
      '--label',
      `${standInLabel}=${digest}`,
      '-t',
      image,
      context,
    ]);
    if (build.status !== 0) throw new Error(`building ${image} failed:\n${(build.stdout + build.stderr).slice(-4000)}`);
    rmSync(context, { recursive: true, force: true });
  }
}
