export * from './logging.module';
export * from './query-error-serializer';
export * from './redaction';
export * from './request-context';
export * from './request-line';
