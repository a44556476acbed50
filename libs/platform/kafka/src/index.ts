export * from './batching-publisher';
export * from './dead-letter.interceptor';
export * from './kafka-client';
export * from './kafka.module';
export * from './topics';
export * from './dead-letter-replay';
