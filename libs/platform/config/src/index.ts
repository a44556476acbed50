export * from './load-env';
export * from './migration-env';
export * from './platform-env';
export * from './settings';
export * from './kafka-security';
export * from './trusted-proxies';
