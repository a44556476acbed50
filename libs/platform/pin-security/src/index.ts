export * from './pin-security-module';
export * from './pin-security-settings';
export * from './software-pin-module';
export * from './terminal-pin-block';
