import { Module } from '@nestjs/common';

import { PartnerEventsOutbox } from '../events/partner-events';
import { WalletsRepository } from '../wallets/wallets.repository';
import { JournalRepository } from './journal.repository';
import { LedgerService } from './ledger.service';
import { MoneyCommandsRepository } from './money-commands.repository';
import { MoneyMovesRepository } from './money-moves.repository';

/** Wallets, the journal and money-command idempotency: what every feature that moves money builds on. */
@Module({
  providers: [
    WalletsRepository,
    LedgerService,
    JournalRepository,
    MoneyCommandsRepository,
    MoneyMovesRepository,
    PartnerEventsOutbox,
  ],
  exports: [WalletsRepository, LedgerService, MoneyCommandsRepository, MoneyMovesRepository, PartnerEventsOutbox],
})
export class LedgerModule {}
