import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from './apps';

jest.setTimeout(180_000);

/** `npm start` and `npm test` on a machine whose PostgreSQL does not answer (tools/lib.mjs). */
describe('the PostgreSQL local commands use', () => {
  const script = join(repoRoot, '.data', `local-postgres-${process.pid}.mjs`);

  afterAll(() => rmSync(script, { force: true }));

  it('is an embedded server, started and stopped by the command, when none answers on the usual address', () => {
    mkdirSync(join(repoRoot, '.data'), { recursive: true });
    writeFileSync(
      script,
      `import pg from 'pg';
import { localPostgres } from '../tools/lib.mjs';
const server = await localPostgres({ machine: 'postgres://postgres@127.0.0.1:1' });
const client = new pg.Client({ connectionString: server.url + '/postgres' });
await client.connect();
const { rows } = await client.query('SHOW port');
await client.end();
await server.stop();
console.log(JSON.stringify({ embedded: server.embedded, port: rows[0].port }));
`,
    );
    const result = spawnSync(process.execPath, [script], { cwd: repoRoot, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toEqual({ embedded: true, port: '54329' });
  });
});
