// Seals again, under each key ring's current key, what one app keeps sealed under an older key:
// node -r ./tools/runtime/register-paths.cjs tools/runtime/keys-reseal.cjs <app>
// Runs with the app's own settings, as its login (in a pod: `payments keys-reseal`), which may
// rewrite what it keeps sealed (docs/operations.md, "Rotating keys"). Exit status 3 when a
// value opens under no key of its ring, or a row kept changing under it.
require('reflect-metadata');
const fs = require('node:fs');
const path = require('node:path');
const { loadEnvOrExit } = require('@payments/platform-bootstrap');
const { postgresOptions, resealColumn } = require('@payments/platform-database');
const { DataSource } = require('typeorm');

const app = process.argv[2];
if (!app) {
  console.error('usage: keys-reseal <app>');
  process.exit(2);
}
const source = path.resolve(__dirname, '../../dist/apps', app, 'src');
const sealedColumnsFile = path.join(source, 'database/sealed-columns.js');

async function main() {
  if (!fs.existsSync(sealedColumnsFile)) {
    console.log(`${app}: keeps nothing sealed`);
    return;
  }
  const { database } = require(path.join(source, 'database/data-source.js'));
  const { sealedColumns } = require(sealedColumnsFile);
  const { Env } = require(path.join(source, 'config/env.js'));
  const env = loadEnvOrExit(Env);
  if (env.SEALED_FORMAT !== 'v2') {
    // A v1 value names no key: a run could not tell what is under an older one.
    console.error(`${app}: keys-reseal seals as v2 only: set SEALED_FORMAT=v2 once no release before key rings runs`);
    process.exit(2);
  }
  const dataSource = await new DataSource(postgresOptions(env.DATABASE_URL, 2, database)).initialize();
  let unsettled = 0;
  try {
    for (const column of sealedColumns(env)) {
      const count = await resealColumn(dataSource, column);
      unsettled += count.unopenable + count.changedMeanwhile;
      const name = `${column.schema}.${column.table}.${column.column}`;
      console.log(
        `${app}: ${name}: ${count.examined} sealed, ${count.resealed} sealed again under key ${column.sealer.currentKeyId}` +
          (count.unopenable ? `, ${count.unopenable} under no key of the ring (left as they are)` : '') +
          (count.changedMeanwhile ? `, ${count.changedMeanwhile} rows changed on every attempt (run it again)` : ''),
      );
    }
  } finally {
    await dataSource.destroy();
  }
  if (unsettled > 0) process.exitCode = 3;
}

main().catch((error) => {
  console.error(`${app}: reseal failed: ${error.message}`);
  process.exit(1);
});
