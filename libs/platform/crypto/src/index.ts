export * from './pos-encryption';
export * from './key-ring';
export * from './sealing';
export * from './secrets';
export * from './ids';
export * from './request-hash';
export * from './card-fingerprint';
export * from './purpose-sealers';
