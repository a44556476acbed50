import { startTracing } from '@payments/platform-tracing';

startTracing('outlet-service');
