import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '@payments/platform-bootstrap';

import { AwaitingOnboarding } from './businesses/awaiting-onboarding';
import { AwaitingOnboardingRepository } from './businesses/awaiting-onboarding.repository';
import { BusinessEventsConsumer } from './businesses/business-events.consumer';
import { BusinessesRepository } from './businesses/businesses.repository';
import { CardChargesConsumer } from './checkouts/card-charges.consumer';
import { CheckoutAccountsRepository } from './checkouts/checkout-accounts.repository';
import { CheckoutOutcomesRepository } from './checkouts/checkout-outcomes.repository';
import { CheckoutPaymentsService } from './checkouts/checkout-payments.service';
import { OutletCommandsController } from './commands/outlet-commands.controller';
import { Env } from './config/env';
import { database } from './database/data-source';
import { PartnerEventsOutbox } from './events/partner-events';
import { CreditVirtualAccountUseCase } from './funding/credit-virtual-account.usecase';
import { JournalRepository } from './ledger/journal.repository';
import { LedgerService } from './ledger/ledger.service';
import { MoneyCommandsRepository } from './ledger/money-commands.repository';
import { MoneyMovesRepository } from './ledger/money-moves.repository';
import { OutletsRepository } from './outlets/outlets.repository';
import { OutletsService } from './outlets/outlets.service';
import { PosCreditUseCase } from './pos/pos-credit.usecase';
import { PosOutcomesConsumer } from './pos/pos-outcomes.consumer';
import { RefundsRepository } from './refunds/refunds.repository';
import { SweepSettingsService } from './sweeps/sweep-settings.service';
import { Sweeper } from './sweeps/sweeper';
import { BankTransferUseCase } from './transfers/bank-transfer.usecase';
import { InternalTransferUseCase } from './transfers/internal-transfer.usecase';
import { PayoutSettings } from './transfers/payout-settings';
import { PayoutSettler } from './transfers/payout-settler';
import { PayoutsRepository } from './transfers/payouts.repository';
import { WalletsRepository } from './wallets/wallets.repository';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(env, database, { outboxRelay: true })],
      controllers: [OutletCommandsController, BusinessEventsConsumer, PosOutcomesConsumer, CardChargesConsumer],
      providers: [
        BusinessesRepository,
        AwaitingOnboarding,
        WalletsRepository,
        LedgerService,
        JournalRepository,
        AwaitingOnboardingRepository,
        PayoutsRepository,
        MoneyCommandsRepository,
        MoneyMovesRepository,
        PartnerEventsOutbox,
        OutletsService,
        OutletsRepository,
        InternalTransferUseCase,
        BankTransferUseCase,
        CreditVirtualAccountUseCase,
        SweepSettingsService,
        Sweeper,
        PayoutSettings,
        PayoutSettler,
        PosCreditUseCase,
        CheckoutOutcomesRepository,
        RefundsRepository,
        CheckoutPaymentsService,
        CheckoutAccountsRepository,
      ],
    };
  }
}
