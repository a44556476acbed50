import { startTracing } from '@payments/platform-tracing';

startTracing('card-processor');
