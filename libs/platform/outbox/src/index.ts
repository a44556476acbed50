export * from './outbox';
export * from './outbox-grants';
export * from './outbox-message.entity';
export * from './outbox-relay';
export * from './outbox-tables.v1';
export * from './outbox-wakeups';
export * from './outbox.module';
