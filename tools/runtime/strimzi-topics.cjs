// Prints the Kafka declarations as Strimzi resources: `topics` (KafkaTopic) or `users` (KafkaUser,
// each app's with its ACLs). npm run topics:manifests writes both to deploy/strimzi/; the
// Kubernetes test fails while they differ from the declarations.
require('reflect-metadata');
const { allTopics } = require('@payments/contracts');
const { strimziTopicsYaml, strimziUsersYaml } = require('@payments/platform-kafka');

const kind = process.argv[2];
if (kind !== 'topics' && kind !== 'users') {
  console.error('usage: strimzi-topics.cjs topics|users');
  process.exit(2);
}
process.stdout.write(kind === 'topics' ? strimziTopicsYaml(allTopics) : strimziUsersYaml(allTopics));
