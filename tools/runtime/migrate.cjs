// Runs one app's pending migrations: node -r ./tools/runtime/register-paths.cjs tools/runtime/migrate.cjs <app>
// Apps also migrate at start (MIGRATE_ON_START); this is for deploy pipelines and operators.
require('reflect-metadata');
const path = require('node:path');
const { loadEnvOrExit } = require('@payments/platform-bootstrap');
const { MigrationEnv } = require('@payments/platform-config');
const { migrate, postgresOptions } = require('@payments/platform-database');

const app = process.argv[2];
const source = path.resolve(__dirname, '../../dist/apps', app ?? '', 'src');
const { database } = require(path.join(source, 'database/data-source.js'));

// The database only: a migration needs none of the app's keys or peers.
const env = loadEnvOrExit(MigrationEnv);
migrate(postgresOptions(env.DATABASE_URL, 2, database), {
  appRole: env.DATABASE_APP_ROLE,
  grants: database.grants,
}).then(
  (applied) => console.log(`${app}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`),
  (error) => {
    console.error(`${app}: migration failed: ${error.message}`);
    process.exit(1);
  },
);
