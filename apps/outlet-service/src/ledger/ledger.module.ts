import { Module } from '@nestjs/common';

import { PartnerEventsOutbox } from '../events/partner-events';
import { PricePlansRepository } from '../pricing/price-plans.repository';
import { PricingService } from '../pricing/pricing.service';
import { WalletsRepository } from '../wallets/wallets.repository';
import { JournalRepository } from './journal.repository';
import { LedgerService } from './ledger.service';
import { MoneyCommandsRepository } from './money-commands.repository';
import { MoneyMovesRepository } from './money-moves.repository';
import { RailCredits } from './rail-credits';

const providers = [
  WalletsRepository,
  LedgerService,
  JournalRepository,
  MoneyCommandsRepository,
  MoneyMovesRepository,
  PartnerEventsOutbox,
  PricePlansRepository,
  PricingService,
  RailCredits,
];

/** Wallets, the journal, pricing and money-command idempotency: what every feature that moves money builds on. */
@Module({ providers, exports: providers })
export class LedgerModule {}
