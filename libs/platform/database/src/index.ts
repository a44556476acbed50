export * from './app-role';
export * from './camel-cased';
export * from './database.module';
export * from './ensure-database';
export * from './first-row';
export * from './migrate';
export * from './postgres-options';
export * from './prepared-query';
