// Sends what is parked on <topic>.dlq back to <topic>:
//   node -r ./tools/runtime/register-paths.cjs tools/runtime/dlq-replay.cjs <topic>
// For operators, once the cause is fixed (for example a business whose onboarding arrived late).
require('reflect-metadata');
const { allTopics } = require('@payments/contracts');
const { kafkaBrokerList, loadEnv, PlatformEnv } = require('@payments/platform-config');
const { createKafkaClient, kafkaSecurity, replayDeadLetters } = require('@payments/platform-kafka');

const topic = process.argv[2];
if (!allTopics.some((spec) => spec.name === topic) || topic.endsWith('.dlq')) {
  console.error(
    `usage: npm run dlq:replay -- <topic>, one of: ${allTopics
      .filter((spec) => !spec.name.endsWith('.dlq'))
      .map((spec) => spec.name)
      .join(', ')}`,
  );
  process.exit(2);
}
// The apps' own Kafka settings (brokers, TLS, SASL), checked as an app checks them at start.
const env = loadEnv(PlatformEnv);
const kafka = createKafkaClient({
  brokers: kafkaBrokerList(env),
  clientId: 'dlq-replay',
  security: kafkaSecurity(env),
});
replayDeadLetters(kafka, topic).then(
  (count) => console.log(`${topic}: replayed ${count} parked message${count === 1 ? '' : 's'}`),
  (error) => {
    console.error(`${topic}: replay failed: ${error.message}`);
    process.exit(1);
  },
);
