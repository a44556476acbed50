import { commandOptions, fail, usageOf, withAppDatabase } from '@payments/platform-bootstrap';
import { PlatformEnv } from '@payments/platform-config';
import { AppDatabase } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { RateLimitOverrides } from './rate-limit-overrides';

export interface RateLimitSetCommand {
  envClass: new () => PlatformEnv;
  database: AppDatabase;
  /** The limits this app counts, and so may override. */
  limits: readonly string[];
  businessExists(dataSource: DataSource, businessId: string): Promise<boolean>;
}

const commandLine = {
  script: 'rate-limit:set',
  options: {
    business: { type: 'string', value: 'ID', required: true },
    limit: { type: 'string', value: 'partner-api|terminal', required: true },
    requests: { type: 'string', value: 'N' },
    per: { type: 'string', value: 'SECONDS' },
    clear: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  notes: `  Give --requests and --per (a window of 1 to 86400 seconds), or --clear to go back to the default.
  Every instance applies the change within 30 seconds.`,
} as const;

/**
 * `rate-limit:set`: an operator's per-business quota for one of the app's limits, or --clear to
 * return the business to the default. Run by each app that counts the limit, in its own schema.
 */
export async function rateLimitSet(command: RateLimitSetCommand): Promise<void> {
  const values = commandOptions(commandLine);
  const businessId = values.business.trim();
  const limit = values.limit.trim();
  if (!command.limits.includes(limit)) {
    return fail(`--limit must be ${command.limits.join(' or ')} here\n${usageOf(commandLine)}`);
  }
  const setting = values.requests !== undefined || values.per !== undefined;
  if (setting === values.clear) return fail(`give --requests and --per, or --clear\n${usageOf(commandLine)}`);
  const quota = Number(values.requests);
  const windowSeconds = Number(values.per);
  if (setting && !(/^\d{1,9}$/.test(values.requests ?? '') && quota >= 1)) {
    return fail('--requests must be a whole number of at least 1');
  }
  if (setting && !(/^\d{1,5}$/.test(values.per ?? '') && windowSeconds >= 1 && windowSeconds <= 86_400)) {
    return fail('--per must be a whole number of seconds from 1 to 86400');
  }

  await withAppDatabase(command.envClass, command.database, async (dataSource) => {
    if (!(await command.businessExists(dataSource, businessId))) return fail(`no business ${businessId}`);
    const overrides = new RateLimitOverrides(dataSource, command.database.schema);
    if (values.clear) {
      const cleared = await overrides.clear(businessId, limit);
      const shown = { businessId, limit, override: null, cleared };
      return void process.stdout.write(
        values.json
          ? `${JSON.stringify(shown)}\n`
          : `Business ${businessId}, ${limit}: ${cleared ? 'back to the default' : 'had no override; the default applies'}\n`,
      );
    }
    await overrides.set(businessId, { name: limit, quota, windowSeconds });
    const shown = { businessId, limit, override: { requests: quota, perSeconds: windowSeconds } };
    process.stdout.write(
      values.json
        ? `${JSON.stringify(shown)}\n`
        : `Business ${businessId}, ${limit}: ${quota} requests every ${windowSeconds} s, within 30 s on every instance\n`,
    );
  });
}
