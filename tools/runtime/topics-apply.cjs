// Makes the Kafka cluster's topics match their declarations in libs/contracts/src/topics.ts:
//   node -r ./tools/runtime/register-paths.cjs tools/runtime/topics-apply.cjs [--check]
// An operator's command (npm run topics:apply), and the migration Job's first step. It connects
// with the apps' own Kafka settings (brokers, TLS, SASL) and needs the rights to create topics
// and alter their configuration, which the apps themselves never have. With --check it writes
// nothing: where something else owns the topics (Strimzi's KafkaTopic resources), it waits up to
// TOPICS_CHECK_SECONDS (300) for every declared topic to be there with its partitions, and
// fails naming what is not.
require('reflect-metadata');
const { allTopics } = require('@payments/contracts');
const { kafkaBrokerList, loadEnv, PlatformEnv } = require('@payments/platform-config');
const { applyTopics, createKafkaClient, kafkaSecurity, topicShortfalls } = require('@payments/platform-kafka');

const checkOnly = process.argv.includes('--check');
const checkSeconds = Number(process.env.TOPICS_CHECK_SECONDS ?? 300);
if (!Number.isInteger(checkSeconds) || checkSeconds < 0) {
  console.error('TOPICS_CHECK_SECONDS must be a whole number of seconds');
  process.exit(78);
}
const checkForMs = checkSeconds * 1000;
const checkEveryMs = 5000;

/** Waits for the topics another owner makes; true once every one is there as declared. */
async function topicsArrive(admin) {
  const until = Date.now() + checkForMs;
  for (;;) {
    // A broker briefly away is waited for as the topics are.
    const shortfalls = await topicShortfalls(admin, allTopics).catch((error) => [`the cluster: ${error.message}`]);
    if (shortfalls.length === 0) return true;
    if (Date.now() >= until) {
      for (const shortfall of shortfalls) console.error(`not as declared: ${shortfall}`);
      return false;
    }
    console.log(`waiting for ${shortfalls.length} topics (${shortfalls[0]}, ...)`);
    await new Promise((resolve) => setTimeout(resolve, checkEveryMs));
  }
}

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
    if (checkOnly) {
      if (!(await topicsArrive(admin))) process.exitCode = 1;
      else console.log(`${allTopics.length} topics as declared (checked, not written)`);
      return;
    }
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
