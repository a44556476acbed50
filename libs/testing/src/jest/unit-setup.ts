/**
 * Unit suites run on fakes only: PostgreSQL and Kafka are pointed at addresses where nothing
 * listens, so a unit test that reaches for either fails here, in `npm test`, and under the
 * projects' `test:unit` target on a machine that has neither.
 */
process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:1/unit_tests_have_no_database';
process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
process.env.KAFKA_BROKERS = '127.0.0.1:1';
