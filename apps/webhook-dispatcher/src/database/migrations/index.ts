import { InitialSchema1763769600003 } from './1763769600003-initial-schema';
import { Deliveries1763769600007 } from './1763769600007-deliveries';
import { HeldDeliveries1763769600024 } from './1763769600024-held-deliveries';
import { PendingByUrl1763769600027 } from './1763769600027-pending-by-url';
import { DeliveryTraceContext1763769600030 } from './1763769600030-delivery-trace-context';
import { PreviousApiKey1763769600032 } from './1763769600032-previous-api-key';
import { DropDueIndex1763769600037 } from './1763769600037-drop-due-index';
import { DeliveryClaimant1763769600039 } from './1763769600039-delivery-claimant';
import { WebhookEndpoints1763769600046 } from './1763769600046-webhook-endpoints';
import { SecretRolls1763769600057 } from './1763769600057-secret-rolls';

/** Every migration of this app, oldest first. */
export const migrations = [
  InitialSchema1763769600003,
  Deliveries1763769600007,
  HeldDeliveries1763769600024,
  PendingByUrl1763769600027,
  DeliveryTraceContext1763769600030,
  PreviousApiKey1763769600032,
  DropDueIndex1763769600037,
  DeliveryClaimant1763769600039,
  WebhookEndpoints1763769600046,
  SecretRolls1763769600057,
];
