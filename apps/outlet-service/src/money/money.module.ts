import { Module } from '@nestjs/common';

import { JournalRepository } from './journal.repository';
import { LedgerService } from './ledger.service';
import { MoneyCommandsRepository } from './money-commands.repository';
import { MoneyMovesRepository } from './money-moves.repository';
import { PricePlansRepository } from './price-plans.repository';
import { PricingService } from './pricing.service';
import { RailCredits } from './rail-credits';
import { WalletsRepository } from './wallets.repository';

const providers = [
  WalletsRepository,
  LedgerService,
  JournalRepository,
  MoneyCommandsRepository,
  MoneyMovesRepository,
  PricePlansRepository,
  PricingService,
  RailCredits,
];

/**
 * The money core: wallets, the journal, pricing, the posting rule and money-command idempotency,
 * what every feature that moves money builds on. It imports no other feature.
 */
@Module({ providers, exports: providers })
export class MoneyModule {}
