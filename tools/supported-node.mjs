// The Node.js the platform runs on is pinned in .nvmrc. Imported first by every local command:
// when this machine's own Node.js is another major version, the command runs again on the pinned
// one, fetched once from the npm registry (the node-<os>-<arch> package, Node's own build) into
// .data/, with that build's folder first on PATH so the suites, apps and tools it starts use it too.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const pinnedNode = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
const major = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/** The pinned build's bin folder under .data/, fetched with `npm pack` when missing. */
function fetchPinnedNode() {
  const bin = join(root, '.data', `node-v${pinnedNode}`, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  const pkg = `node-${process.platform}-${process.arch}@${pinnedNode}`;
  mkdirSync(join(root, '.data'), { recursive: true });
  const partial = mkdtempSync(join(root, '.data', 'node-fetch-'));
  try {
    const packed = spawnSync('npm', ['pack', pkg, '--pack-destination', partial, '--silent'], { encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack ${pkg} failed: ${packed.stderr.trim()}`);
    const tarball = join(partial, packed.stdout.trim().split('\n').pop());
    const unpacked = spawnSync('tar', ['-xzf', tarball, '-C', partial, '--strip-components=1'], { encoding: 'utf8' });
    if (unpacked.status !== 0) throw new Error(`could not unpack ${tarball}: ${unpacked.stderr.trim()}`);
    rmSync(tarball);
    renameSync(partial, dirname(bin));
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  return bin;
}

/** Runs this command again on the pinned Node.js, passing signals on, and exits as it does. */
function rerunOnPinnedNode() {
  const bin = fetchPinnedNode();
  process.stderr.write(
    `» this machine's Node.js is ${process.version}; running on Node.js ${pinnedNode} from the npm registry (.nvmrc)\n`,
  );
  const child = spawn(join(bin, 'node'), [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  return new Promise(() => child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1))));
}

if (major(process.version) !== major(pinnedNode)) await rerunOnPinnedNode();
