export * from './wake-up';
