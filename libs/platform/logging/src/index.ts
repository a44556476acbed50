export * from './logging.module';
export * from './redaction';
export * from './request-context';
export * from './request-line';
