export * from './worker-loop';
export * from './api-docs.setup';
export * from './bootstrap';
export * from './env.module';
export * from './platform.module';
export * from './operator-command';
export * from './client-address';
