export * from './load-env';
export * from './platform-env';
export * from './settings';
