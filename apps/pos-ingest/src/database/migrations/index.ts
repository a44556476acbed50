import { InitialSchema1763769600001 } from './1763769600001-initial-schema';
import { Terminals1763769600008 } from './1763769600008-terminals';
import { SubmissionPublished1763769600022 } from './1763769600022-submission-published';
import { DerivedReferences1763769600029 } from './1763769600029-derived-references';
import { KnownOutlets1763769600041 } from './1763769600041-known-outlets';
import { RateLimits1763769600044 } from './1763769600044-rate-limits';
import { TerminalPinKeys1763769600064 } from './1763769600064-terminal-pin-keys';

/** Every migration of this app, oldest first. */
export const migrations = [
  InitialSchema1763769600001,
  Terminals1763769600008,
  SubmissionPublished1763769600022,
  DerivedReferences1763769600029,
  KnownOutlets1763769600041,
  RateLimits1763769600044,
  TerminalPinKeys1763769600064,
];
