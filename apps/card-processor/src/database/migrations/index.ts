import { InitialSchema1763769600000 } from './1763769600000-initial-schema';
import { PosAuthorisations1763769600009 } from './1763769600009-pos-authorisations';
import { CardCharges1763769600011 } from './1763769600011-card-charges';
import { CardChargeDeadline1763769600021 } from './1763769600021-card-charge-deadline';
import { CardNetwork1763769600060 } from './1763769600060-card-network';
import { CardRefunds1763769600061 } from './1763769600061-card-refunds';
import { Reconciliations1763769600063 } from './1763769600063-reconciliations';
import { NetworkRequestClaims1763769600065 } from './1763769600065-network-request-claims';
import { LateApprovals1763769600066 } from './1763769600066-late-approvals';

/** Every migration of this app, oldest first. */
export const migrations = [
  InitialSchema1763769600000,
  PosAuthorisations1763769600009,
  CardCharges1763769600011,
  CardChargeDeadline1763769600021,
  CardNetwork1763769600060,
  CardRefunds1763769600061,
  Reconciliations1763769600063,
  NetworkRequestClaims1763769600065,
  LateApprovals1763769600066,
];
