import { Module } from '@nestjs/common';
import { MemberSecretSealer, sealerFor } from '@payments/platform-crypto';

import { BusinessesModule } from '../businesses/businesses.module';
import { Env } from '../config/env';
import { KafkaClientsModule } from '../kafka-clients/kafka-clients.module';
import { RefundsModule } from '../refunds/refunds.module';
import { TransactionsModule } from '../transactions/transactions.module';
import { DashboardController } from './dashboard.controller';
import { DashboardAssets } from './dashboard-assets';
import { DashboardAuth } from './dashboard-auth.service';
import { DashboardRefunds } from './dashboard-refunds';
import { DashboardRequests } from './dashboard-requests';
import { DashboardSweeper } from './dashboard-sweeper';
import { MembersRepository } from './members.repository';
import { OverviewReader } from './overview';
import { DashboardRefundsController } from './refunds.controller';
import { SecurityController } from './security.controller';
import { SessionsRepository } from './sessions.repository';
import { SignInController } from './sign-in.controller';
import { SignInAttempts } from './sign-in-attempts';
import { Team } from './team';
import { TeamController } from './team.controller';
import { DashboardTransactionsController } from './transactions.controller';
import { MEMBER_SECRET_SEALER, TwoFactor } from './two-factor';
import { DashboardWebhooksController } from './webhooks.controller';

/** The dashboard for a partner's people: accounts, sessions and pages (docs/dashboard.md). */
@Module({
  imports: [BusinessesModule, KafkaClientsModule, RefundsModule, TransactionsModule],
  controllers: [
    DashboardController,
    SignInController,
    SecurityController,
    TeamController,
    DashboardTransactionsController,
    DashboardRefundsController,
    DashboardWebhooksController,
  ],
  providers: [
    DashboardAssets,
    DashboardAuth,
    DashboardRefunds,
    DashboardRequests,
    DashboardSweeper,
    MembersRepository,
    OverviewReader,
    SessionsRepository,
    SignInAttempts,
    Team,
    TwoFactor,
    {
      provide: MEMBER_SECRET_SEALER,
      inject: [Env],
      useFactory: (env: Env) => sealerFor(MemberSecretSealer, env.MEMBER_SECRET_SEALING_KEY, env),
    },
  ],
  exports: [MembersRepository],
})
export class DashboardModule {}
