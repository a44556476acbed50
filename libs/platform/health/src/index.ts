export * from './health.controller';
export * from './health.module';
export * from './dependency-watch';
