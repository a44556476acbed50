import { IsOptional, Matches } from 'class-validator';

import { PlatformEnv } from './platform-env';

/**
 * What a migration run reads (tools/runtime/migrate.cjs, the deploy's migration Job): the
 * database and the login to grant, and nothing of an app's keys or peers, so that the schemas'
 * owner never runs beside a key it does not need.
 */
export class MigrationEnv {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL: string = new PlatformEnv().DATABASE_URL;

  /** The login the app runs as, granted its own schema and nothing else after the run. */
  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'must be a plain lower-case role name' })
  DATABASE_APP_ROLE?: string = undefined;
}
