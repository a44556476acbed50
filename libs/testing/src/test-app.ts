import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppSpec, createApp } from '@payments/platform-bootstrap';
import { loadEnv, PlatformEnv } from '@payments/platform-config';
import { migrate, postgresOptions } from '@payments/platform-database';

import { testEnvironment } from './test-env';

/** Builds an app in-process against the real database and broker, migrated, ready for `inject`. */
export async function startTestApp<E extends PlatformEnv>(
  spec: AppSpec<E>,
  overrides: Record<string, string> = {},
): Promise<{ app: NestFastifyApplication; env: E }> {
  const env = loadEnv(spec.envClass, testEnvironment(overrides));
  await migrate(postgresOptions(env.DATABASE_URL, 2, spec.database));
  const app = await createApp(spec, env);
  await app.getHttpAdapter().getInstance().ready();
  return { app, env };
}
