// What a partner request's rate limit check costs: the gateway's own limiter, run in this
// process against the bench database's gateway schema, from as many concurrent callers as the
// transfer rounds use. Its CPU (this process and PostgreSQL) per check sits beside a transfer's
// in the bench's table. The quota is never reached, and grants are the size the default
// quota's are (100 requests), so every check costs what an admitted partner request does.
import { createRequire } from 'node:module';

import { beforeRound, CpuMeter, perOperation } from './support.mjs';

const require = createRequire(import.meta.url);
require('../tools/runtime/register-paths.cjs');

/** One round of `connections` callers checking one API key's limit for `seconds`; CPU per check. */
export async function rateLimitRound(databaseUrl, seconds, connections) {
  const { DataSource } = require('typeorm');
  const { RateLimits } = require('@payments/platform-rate-limit');
  const { Registry } = require('prom-client');
  const dataSource = await new DataSource({ type: 'postgres', url: databaseUrl, poolSize: 10 }).initialize();
  try {
    const limits = new RateLimits(dataSource, 'gateway', new Registry());
    const policy = { name: 'partner-api', quota: 1_000_000_000, windowSeconds: 60 };
    const reply = { header: () => undefined };
    const meter = new CpuMeter({});
    await beforeRound(meter, databaseUrl);
    const before = meter.snapshot();
    const deadline = Date.now() + seconds * 1000;
    let checks = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < deadline) {
          await limits.admit(reply, policy, 'bench-api-key', 'BUS-BENCH');
          checks += 1;
        }
      }),
    );
    return { checks, cpu: perOperation(meter.used(before, meter.snapshot()), checks) };
  } finally {
    await dataSource.destroy();
  }
}
