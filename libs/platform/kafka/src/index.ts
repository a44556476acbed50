export * from './kafka-client';
export * from './kafka.module';
export * from './topics';
