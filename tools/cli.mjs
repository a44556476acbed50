// npm run migrate [-- <app>...]      run the apps' pending migrations (all apps by default)
// npm run partner:create -- ...      onboard a partner (see the README)
// npm run partner:keys:roll -- ...   roll a partner's API key pair (docs/keys.md)
// npm run pricing:set -- ...         change a business's price plan (docs/pricing.md)
// npm run rate-limit:set -- ...      change a business's rate limit (docs/rate-limits.md)
// npm run terminal:register -- ...   register a POS terminal (docs/pos.md)
// npm run terminal:audit -- ...      list terminals registered to an outlet their business lacks
// npm run pos:send -- ...            send an encrypted test transaction to POST /pos
// npm run dlq:replay -- <topic>      send the messages parked on <topic>.dlq back to <topic>
// npm run reconcile -- --date ...    reconcile a card settlement date with the ledger and the host (docs/card-network.md)
// npm run keys:reseal [-- <app>...]  seal again under each key ring's current key (docs/operations.md)
// npm run topics:apply               make the cluster's topics match their declarations
// npm run topics:manifests           write them, and each app's Kafka user, as Strimzi resources to deploy/strimzi
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { apps, ensureBuild, ensureDependencies, localEnv, log, nodeScript, root } from './lib.mjs';

const [command, ...args] = process.argv.slice(2);
ensureDependencies();
ensureBuild();
const env = localEnv();

switch (command) {
  case 'migrate': {
    const names = args.length > 0 ? args : apps.map((app) => app.name);
    for (const name of names) {
      log(`migrating ${name}`);
      const result = nodeScript('tools/runtime/migrate.cjs', [name], env, ['ignore', 2, 'inherit']);
      if (result.status !== 0) process.exit(result.status ?? 1);
    }
    break;
  }
  case 'keys-reseal': {
    // The apps that keep something sealed.
    const names = args.length > 0 ? args : ['checkout-gateway', 'card-processor', 'pos-ingest', 'webhook-dispatcher'];
    let status = 0;
    for (const name of names) {
      const result = nodeScript('tools/runtime/keys-reseal.cjs', [name], env);
      if (result.status !== 0) status = result.status ?? 1;
    }
    process.exit(status);
    break;
  }
  case 'partner-create':
    process.exit(nodeScript('dist/apps/checkout-gateway/src/cli/partner-create.js', args, env).status ?? 1);
    break;
  case 'partner-keys-roll':
    process.exit(nodeScript('dist/apps/checkout-gateway/src/cli/partner-keys-roll.js', args, env).status ?? 1);
    break;
  case 'pricing-set':
    process.exit(nodeScript('dist/apps/outlet-service/src/cli/pricing-set.js', args, env).status ?? 1);
    break;
  case 'rate-limit-set': {
    // Each limit is counted, and so overridden, by the app that answers its requests.
    const app = args.includes('terminal') ? 'pos-ingest' : 'checkout-gateway';
    process.exit(nodeScript(`dist/apps/${app}/src/cli/rate-limit-set.js`, args, env).status ?? 1);
    break;
  }
  case 'terminal-register':
    process.exit(nodeScript('dist/apps/pos-ingest/src/cli/terminal-register.js', args, env).status ?? 1);
    break;
  case 'terminal-audit':
    process.exit(nodeScript('dist/apps/pos-ingest/src/cli/terminal-audit.js', args, env).status ?? 1);
    break;
  case 'pos-send':
    process.exit(nodeScript('dist/apps/pos-ingest/src/cli/pos-send.js', args, env).status ?? 1);
    break;
  case 'reconcile':
    process.exit(nodeScript('dist/apps/card-processor/src/cli/reconcile.js', args, env).status ?? 1);
    break;
  case 'dlq-replay':
    process.exit(nodeScript('tools/runtime/dlq-replay.cjs', args, env).status ?? 1);
    break;
  case 'topics-apply':
    process.exit(nodeScript('tools/runtime/topics-apply.cjs', args, env).status ?? 1);
    break;
  case 'topics-manifests':
    for (const kind of ['topics', 'users']) {
      const result = nodeScript('tools/runtime/strimzi-topics.cjs', [kind], env, ['ignore', 'pipe', 'inherit']);
      if (result.status !== 0) process.exit(result.status ?? 1);
      // The users live beside the apps' pods (namespace payments), the topics beside the cluster.
      const file = kind === 'users' ? 'deploy/strimzi/users/kafka-users.yaml' : 'deploy/strimzi/kafka-topics.yaml';
      writeFileSync(join(root, file), result.stdout);
      log(`wrote ${file}`);
    }
    break;
  default:
    log(`unknown command ${command}`);
    process.exit(2);
}
