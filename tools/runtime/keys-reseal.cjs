// Seals again, under each key ring's current key, what one app keeps sealed under an older key:
// node -r ./tools/runtime/register-paths.cjs tools/runtime/keys-reseal.cjs <app>
// Run as the schemas' owner (DATABASE_URL), with the app's key settings (docs/operations.md,
// "Rotating keys"). Exit status 3 when a value opens under no key of its ring.
require('reflect-metadata');
const fs = require('node:fs');
const path = require('node:path');
const { loadEnvOrExit } = require('@payments/platform-bootstrap');
const { postgresOptions, resealColumn } = require('@payments/platform-database');
const { DataSource } = require('typeorm');

const app = process.argv[2];
const source = path.resolve(__dirname, '../../dist/apps', app ?? '', 'src');
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
  const dataSource = await new DataSource(postgresOptions(env.DATABASE_URL, 2, database)).initialize();
  let unopenable = 0;
  try {
    for (const column of sealedColumns(env)) {
      const count = await resealColumn(dataSource, column);
      unopenable += count.unopenable;
      const name = `${column.schema}.${column.table}.${column.column}`;
      console.log(
        `${app}: ${name}: ${count.examined} sealed, ${count.resealed} sealed again under key ${column.sealer.currentKeyId}` +
          (count.unopenable ? `, ${count.unopenable} under no key of the ring (left as they are)` : ''),
      );
    }
  } finally {
    await dataSource.destroy();
  }
  if (unopenable > 0) process.exitCode = 3;
}

main().catch((error) => {
  console.error(`${app}: reseal failed: ${error.message}`);
  process.exit(1);
});
