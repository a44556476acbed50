import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { repoRoot } from './apps';

jest.setTimeout(180_000);

const apps = ['checkout-gateway', 'card-processor', 'pos-ingest', 'outlet-service', 'webhook-dispatcher'];

function nx(args: string[]): string {
  const result = spawnSync(join(repoRoot, 'node_modules/.bin/nx'), args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  if (result.status !== 0) throw new Error(`nx ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  // Without colour codes, whatever the terminal or CI asks for.
  return stripVTControlCharacters(result.stdout);
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A project's `test` target as Nx runs it, with the broker settings given (KAFKA_BROKERS unset). */
function projectTest(projectRoot: string, kafka: Record<string, string>) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...kafka };
  delete env.KAFKA_BROKERS;
  return spawnSync(process.execPath, ['tools/project-test.mjs', projectRoot], { cwd: repoRoot, encoding: 'utf8', env });
}

/** A command holding a lease on the broker (leaseKafka in tools/lib.mjs) until it is told to let go. */
function leaseHolder(kafka: Record<string, string>) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...kafka };
  delete env.KAFKA_BROKERS;
  const script = `import { leaseKafka } from './tools/lib.mjs';
    const release = leaseKafka();
    console.log('leased');
    process.stdin.once('data', () => { release(); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const leased = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('leased') && resolve());
    void exited.then(() => reject(new Error('the lease holder exited before it leased')));
  });
  return {
    leased,
    release: async () => {
      child.stdin.end('go\n');
      await exited;
    },
  };
}

describe('Nx targets, as the platform team runs them', () => {
  it('gives every app build, serve, test, lint and container, and every lib build, test and lint', () => {
    const projects = JSON.parse(nx(['show', 'projects', '--json'])) as string[];
    expect(projects).toEqual(expect.arrayContaining([...apps, 'contracts', 'platform-kafka', 'testing']));
    for (const project of projects) {
      const { targets } = JSON.parse(nx(['show', 'project', project, '--json'])) as {
        targets: Record<string, unknown>;
      };
      const expected =
        project === 'platform-tests'
          ? ['test', 'lint']
          : apps.includes(project)
            ? ['build', 'serve', 'test', 'lint', 'container']
            : ['build', 'test', 'lint'];
      expect([project, Object.keys(targets)]).toEqual([project, expect.arrayContaining(expected)]);
    }
  });

  it('builds every project into dist/, libs before the apps that import them, and reads it from the cache next time', () => {
    // --skip-nx-cache would also leave the cache unwritten: a fresh clone builds, a warm one restores.
    const first = nx(['run-many', '-t', 'build', '--outputStyle=static']);
    expect(first).toContain('Successfully ran target build');
    for (const app of apps) expect(existsSync(join(repoRoot, 'dist/apps', app, 'src/main.js'))).toBe(true);
    expect(existsSync(join(repoRoot, 'dist/libs/platform/kafka/src/index.js'))).toBe(true);
    expect(existsSync(join(repoRoot, 'dist/apps/checkout-gateway/src/hosted-page/public/checkout.js'))).toBe(true);
    const again = nx(['run-many', '-t', 'build', '--outputStyle=static']);
    expect(again).toMatch(/read the output from the cache instead of running the command for (\d+) out of \1 tasks/);
  });

  it('draws the architecture: apps depend on libs, never on each other', () => {
    const { graph } = JSON.parse(nx(['graph', '--file=stdout'])) as {
      graph: { dependencies: Record<string, { target: string }[]> };
    };
    for (const app of apps) {
      const targets = graph.dependencies[app].map((dependency) => dependency.target);
      expect(targets).toEqual(expect.arrayContaining(['contracts', 'platform-bootstrap']));
      expect(targets.filter((target) => apps.includes(target))).toEqual([]);
    }
  });

  it('keeps the broker test targets run at once started up until the last of them is done', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kafka-leases-'));
    const port = 19_494;
    const kafka = { KAFKA_PORT: String(port), KAFKA_CONTROLLER_PORT: String(port + 1), KAFKA_DATA_DIR: dataDir };
    try {
      // Both find no broker at once, as `nx affected -t test` runs several projects' targets.
      const [first, second] = [leaseHolder(kafka), leaseHolder(kafka)];
      await Promise.all([first.leased, second.leased]);
      expect(await listening(port)).toBe(true);

      await first.release();
      expect(await listening(port)).toBe(true);
      await second.release();
      expect(await listening(port)).toBe(false);
    } finally {
      spawnSync('bash', ['deploy/kafka/kafka.sh', 'stop'], {
        cwd: repoRoot,
        env: { ...process.env, KAFKA_BROKERS: '', ...kafka },
      });
      for (const dir of [dataDir, `${dataDir}-leases`]) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops the broker a test target started, and leaves running one it found', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kafka-project-test-'));
    const port = 19_492;
    try {
      const started = projectTest('libs/platform/async', {
        KAFKA_PORT: String(port),
        KAFKA_CONTROLLER_PORT: String(port + 1),
        KAFKA_DATA_DIR: dataDir,
      });
      expect([started.status, started.stderr]).toEqual([0, expect.any(String)]);
      expect(await listening(port)).toBe(false);

      // The suites' own broker on 9092 was running before: the target uses it and leaves it up.
      const found = projectTest('libs/platform/async', {});
      expect([found.status, found.stderr]).toEqual([0, expect.any(String)]);
      expect(await listening(9092)).toBe(true);
    } finally {
      spawnSync('bash', ['deploy/kafka/kafka.sh', 'stop'], {
        cwd: repoRoot,
        env: { ...process.env, KAFKA_BROKERS: '', KAFKA_PORT: String(port), KAFKA_DATA_DIR: dataDir },
      });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
