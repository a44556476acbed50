import { InitialSchema1763769600004 } from './1763769600004-initial-schema';
import { Businesses1763769600005 } from './1763769600005-businesses';
import { Checkouts1763769600010 } from './1763769600010-checkouts';
import { CheckoutReturnUrl1763769600020 } from './1763769600020-checkout-return-url';
import { BusinessKeys1763769600031 } from './1763769600031-business-keys';
import { Transactions1763769600034 } from './1763769600034-transactions';
import { ExpiringCheckoutsIndex1763769600038 } from './1763769600038-expiring-checkouts-index';
import { TransactionKinds1763769600041 } from './1763769600041-transaction-kinds';
import { RateLimits1763769600044 } from './1763769600044-rate-limits';
import { CardAttempts1763769600045 } from './1763769600045-card-attempts';
import { BusinessOnboarding1763769600048 } from './1763769600048-business-onboarding';
import { RateLimitKeys1763769600050 } from './1763769600050-rate-limit-keys';
import { CardAttemptsInFlight1763769600058 } from './1763769600058-card-attempts-in-flight';
import { TransactionOutlets1763769600059 } from './1763769600059-transaction-outlets';
import { DashboardMembers1763769600067 } from './1763769600067-dashboard-members';
import { MemberTwoFactor1763769600068 } from './1763769600068-member-two-factor';

/** Every migration of this app, oldest first. */
export const migrations = [
  InitialSchema1763769600004,
  Businesses1763769600005,
  Checkouts1763769600010,
  CheckoutReturnUrl1763769600020,
  BusinessKeys1763769600031,
  Transactions1763769600034,
  ExpiringCheckoutsIndex1763769600038,
  TransactionKinds1763769600041,
  RateLimits1763769600044,
  CardAttempts1763769600045,
  BusinessOnboarding1763769600048,
  RateLimitKeys1763769600050,
  CardAttemptsInFlight1763769600058,
  TransactionOutlets1763769600059,
  DashboardMembers1763769600067,
  MemberTwoFactor1763769600068,
];
