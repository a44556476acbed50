import { InitialSchema1763769600002 } from './1763769600002-initial-schema';

/** Every migration of this app, oldest first. */
export const migrations = [InitialSchema1763769600002];
