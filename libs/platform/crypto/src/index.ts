export * from './sealing';
export * from './secrets';
