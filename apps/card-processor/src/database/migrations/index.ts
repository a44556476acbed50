import { InitialSchema1763769600000 } from './1763769600000-initial-schema';

/** Every migration of this app, oldest first. */
export const migrations = [InitialSchema1763769600000];
