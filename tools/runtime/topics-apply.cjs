// Makes the Kafka cluster's topics match their declarations in libs/contracts/src/topics.ts:
//   node -r ./tools/runtime/register-paths.cjs tools/runtime/topics-apply.cjs
// An operator's command (npm run topics:apply), and the migration Job's first step. It connects
// with the apps' own Kafka settings (brokers, TLS, SASL) and needs the rights to create topics
// and alter their configuration, which the apps themselves never have.
require('reflect-metadata');
const { allTopics } = require('@payments/contracts');
const { kafkaBrokerList, loadEnv, PlatformEnv } = require('@payments/platform-config');
const { applyTopics, createKafkaClient, kafkaSecurity } = require('@payments/platform-kafka');

async function main() {
  const env = loadEnv(PlatformEnv);
  const kafka = createKafkaClient({
    brokers: kafkaBrokerList(env),
    clientId: 'topics-apply',
    security: kafkaSecurity(env),
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { created, grown, reconfigured, notes } = await applyTopics(admin, allTopics);
    const said = (label, names) => names.length > 0 && console.log(`${label}: ${names.join(', ')}`);
    said('created', created);
    said('partitions grown', grown);
    said('settings applied', reconfigured);
    for (const note of notes) console.log(`note: ${note}`);
    console.log(`${allTopics.length} topics as declared`);
  } finally {
    await admin.disconnect();
  }
}

main().catch((error) => {
  console.error(`topics:apply failed: ${error.message}`);
  process.exit(1);
});
