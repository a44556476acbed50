// Prints the topic declarations as Strimzi KafkaTopic resources (npm run topics:manifests writes
// them to deploy/strimzi/kafka-topics.yaml; the Kubernetes test fails while the two differ).
require('reflect-metadata');
const { allTopics } = require('@payments/contracts');
const { strimziTopicsYaml } = require('@payments/platform-kafka');

process.stdout.write(strimziTopicsYaml(allTopics));
