import { Module } from '@nestjs/common';

import { DashboardController } from './dashboard.controller';
import { DashboardAssets } from './dashboard-assets';
import { DashboardAuth } from './dashboard-auth.service';
import { DashboardSweeper } from './dashboard-sweeper';
import { MembersRepository } from './members.repository';
import { SessionsRepository } from './sessions.repository';
import { SignInAttempts } from './sign-in-attempts';

/** The dashboard for a partner's people: accounts, sessions and pages (docs/dashboard.md). */
@Module({
  controllers: [DashboardController],
  providers: [DashboardAssets, DashboardAuth, DashboardSweeper, MembersRepository, SessionsRepository, SignInAttempts],
  exports: [MembersRepository],
})
export class DashboardModule {}
