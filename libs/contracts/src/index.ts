export * from './envelope';
export * from './errors/error-code';
export * from './events/business-provisioned.v1';
export * from './http/business/business-profile.response';
export * from './topics';
