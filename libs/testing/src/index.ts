export * from './compose';
export * from './kafka-collector';
export * from './private-broker';
export * from './test-app';
export * from './test-env';
export * from './private-postgres';
export * from './kubernetes';
export * from './pos-payload';
