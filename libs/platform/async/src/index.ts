export * from './batched-writes';
export * from './wake-up';
