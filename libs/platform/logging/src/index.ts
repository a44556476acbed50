export * from './logging.module';
export * from './redaction';
export * from './request-line';
