import { Module } from '@nestjs/common';
import { MemberSecretSealer, sealerFor } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { DashboardController } from './dashboard.controller';
import { DashboardAssets } from './dashboard-assets';
import { DashboardAuth } from './dashboard-auth.service';
import { DashboardRequests } from './dashboard-requests';
import { DashboardSweeper } from './dashboard-sweeper';
import { MembersRepository } from './members.repository';
import { SecurityController } from './security.controller';
import { SessionsRepository } from './sessions.repository';
import { SignInController } from './sign-in.controller';
import { SignInAttempts } from './sign-in-attempts';
import { Team } from './team';
import { TeamController } from './team.controller';
import { MEMBER_SECRET_SEALER, TwoFactor } from './two-factor';

/** The dashboard for a partner's people: accounts, sessions and pages (docs/dashboard.md). */
@Module({
  controllers: [DashboardController, SignInController, SecurityController, TeamController],
  providers: [
    DashboardAssets,
    DashboardAuth,
    DashboardRequests,
    DashboardSweeper,
    MembersRepository,
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
