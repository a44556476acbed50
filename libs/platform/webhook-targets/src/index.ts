export * from './target-guard';
export * from './webhook-url-policy';
