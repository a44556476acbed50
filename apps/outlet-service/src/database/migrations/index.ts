import { InitialSchema1763769600002 } from './1763769600002-initial-schema';
import { Ledger1763769600006 } from './1763769600006-ledger';
import { CheckoutAccounts1763769600012 } from './1763769600012-checkout-accounts';
import { CheckoutOutcomes1763769600023 } from './1763769600023-checkout-outcomes';
import { MoveMoney1763769600025 } from './1763769600025-move-money';
import { MoveMoneyDecides1763769600026 } from './1763769600026-move-money-decides';
import { AwaitingOnboarding1763769600028 } from './1763769600028-awaiting-onboarding';
import { Pricing1763769600033 } from './1763769600033-pricing';
import { PartnerRefunds1763769600035 } from './1763769600035-partner-refunds';
import { MoneyCommandDeadline1763769600036 } from './1763769600036-money-command-deadline';
import { OutletsAnnounced1763769600040 } from './1763769600040-outlets-announced';
import { OutcomeCharges1763769600041 } from './1763769600041-outcome-charges';
import { RefundsListed1763769600042 } from './1763769600042-refunds-listed';
import { MoveMoneyNamed1763769600043 } from './1763769600043-move-money-named';
import { CardRefunds1763769600062 } from './1763769600062-card-refunds';

/** Every migration of this app, oldest first. */
export const migrations = [
  InitialSchema1763769600002,
  Ledger1763769600006,
  CheckoutAccounts1763769600012,
  CheckoutOutcomes1763769600023,
  MoveMoney1763769600025,
  MoveMoneyDecides1763769600026,
  AwaitingOnboarding1763769600028,
  Pricing1763769600033,
  PartnerRefunds1763769600035,
  MoneyCommandDeadline1763769600036,
  OutletsAnnounced1763769600040,
  OutcomeCharges1763769600041,
  RefundsListed1763769600042,
  MoveMoneyNamed1763769600043,
  CardRefunds1763769600062,
];
