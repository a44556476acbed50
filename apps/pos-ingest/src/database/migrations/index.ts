import { InitialSchema1763769600001 } from './1763769600001-initial-schema';
import { Terminals1763769600008 } from './1763769600008-terminals';

/** Every migration of this app, oldest first. */
export const migrations = [InitialSchema1763769600001, Terminals1763769600008];
