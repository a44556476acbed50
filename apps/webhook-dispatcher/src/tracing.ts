import { startTracing } from '@payments/platform-tracing';

startTracing('webhook-dispatcher');
