export * from './message-tracing';
export * from './tracing';
