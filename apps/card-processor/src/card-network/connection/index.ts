export * from './clock';
export * from './connection-settings';
export * from './errors';
export * from './host-connector';
