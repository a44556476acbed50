import { startTracing } from '@payments/platform-tracing';

startTracing('pos-ingest');
