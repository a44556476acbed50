export * from './batched-writes';
export * from './wake-up';
export * from './joined-runs';
export * from './within-timeout';
