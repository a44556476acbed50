import { startTracing } from '@payments/platform-tracing';

startTracing('checkout-gateway');
