import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { repoRoot } from './compose';

const run = promisify(execFile);

/** Shared with the local commands, which cannot import this library (tools/postgres-binaries.cjs). */
const { postgresBinaries: binaries } = createRequire(__filename)(join(repoRoot, 'tools/postgres-binaries.cjs')) as {
  postgresBinaries: () => string;
};

/**
 * A private PostgreSQL server on its own port and data folder, for tests that stop and start
 * the database without disturbing the server every other suite shares. PostgreSQL refuses to
 * run as root, so as root it runs as the machine's `postgres` user. With `tls`, it accepts TCP
 * connections over TLS only, with a certificate for 127.0.0.1 signed by the CA in `caFile`.
 */
export class PrivatePostgres {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'pg-private-'));
  private initialised = false;
  private readonly asUser: string[];

  constructor(
    readonly port: number,
    private readonly tls = false,
  ) {
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

  /** The CA that signed a TLS server's certificate, PEM, outside the data folder the server owns. */
  get caFile(): string {
    return `${this.dataDir}-ca.pem`;
  }

  async start(): Promise<void> {
    if (!this.initialised) {
      await this.exec('initdb', ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
      if (this.tls) await this.writeTls();
      this.initialised = true;
    }
    const tlsOptions = this.tls ? ' -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key' : '';
    const options = `-p ${this.port} -k ${this.dataDir} -c listen_addresses=127.0.0.1 -c fsync=off${tlsOptions}`;
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
    for (const path of [this.dataDir, this.caFile, `${this.caFile}.key`, `${this.dataDir}-ca.srl`]) {
      rmSync(path, { recursive: true, force: true });
    }
  }

  /** A CA, the server's certificate for 127.0.0.1 and localhost, and TCP over TLS only. */
  private async writeTls(): Promise<void> {
    const at = (name: string) => join(this.dataDir, name);
    const openssl = (args: string[]) => run('openssl', args, { timeout: 60_000 });
    await openssl(
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=private PostgreSQL CA'].concat([
        '-keyout',
        `${this.caFile}.key`,
        '-out',
        this.caFile,
      ]),
    );
    await openssl([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      at('server.key'),
      '-out',
      at('server.csr'),
    ]);
    writeFileSync(at('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    await openssl(
      ['x509', '-req', '-in', at('server.csr'), '-CA', this.caFile, '-CAkey', `${this.caFile}.key`].concat([
        '-CAcreateserial',
        '-days',
        '30',
        '-extfile',
        at('san.ext'),
        '-out',
        at('server.crt'),
      ]),
    );
    writeFileSync(at('pg_hba.conf'), 'local all all trust\nhostssl all all 127.0.0.1/32 trust\n');
    chmodSync(at('server.key'), 0o600);
    if (process.getuid?.() === 0) {
      const [uid, gid] = ['-u', '-g'].map((flag) =>
        Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })),
      );
      for (const name of ['server.key', 'server.crt', 'pg_hba.conf']) chownSync(at(name), uid, gid);
    }
  }

  private async exec(binary: string, args: string[]): Promise<void> {
    const [command, ...prefix] = [...this.asUser, join(binaries(), binary)];
    await run(command, [...prefix, ...args], { timeout: 120_000 });
  }
}
