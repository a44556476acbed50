export * from './postgres-token-store';
export * from './rate-limit-overrides';
export * from './rate-limit-policy';
export * from './rate-limit-setting';
export * from './rate-limiter';
export * from './rate-limits';
export * from './rate-limits.module';
export * from './rate-limit-set.command';
