// Sends what is parked on <topic>.dlq back to <topic>:
//   node -r ./tools/runtime/register-paths.cjs tools/runtime/dlq-replay.cjs <topic>
// For operators, once the cause is fixed (for example a business whose onboarding arrived late).
require('reflect-metadata');
const { allTopics } = require('@payments/contracts');
const { createKafkaClient, replayDeadLetters } = require('@payments/platform-kafka');

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
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
replayDeadLetters(createKafkaClient({ brokers, clientId: 'dlq-replay' }), topic).then(
  (count) => console.log(`${topic}: replayed ${count} parked message${count === 1 ? '' : 's'}`),
  (error) => {
    console.error(`${topic}: replay failed: ${error.message}`);
    process.exit(1);
  },
);
