import { InitialSchema1763769600001 } from './1763769600001-initial-schema';

/** Every migration of this app, oldest first. */
export const migrations = [InitialSchema1763769600001];
