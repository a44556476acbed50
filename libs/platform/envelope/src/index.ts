export * from './command-reply';
export * from './api-docs';
export * from './api-exception.filter';
export * from './domain-error';
export * from './envelope.interceptor';
export * from './error-status';
export * from './to-error-envelope';
export * from './validation.pipe';
