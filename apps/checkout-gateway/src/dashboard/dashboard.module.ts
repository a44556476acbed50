import { Module } from '@nestjs/common';
import { MemberSecretSealer, sealerFor } from '@payments/platform-crypto';

import { Env } from '../config/env';
import { DashboardController } from './dashboard.controller';
import { DashboardAssets } from './dashboard-assets';
import { DashboardAuth } from './dashboard-auth.service';
import { DashboardSweeper } from './dashboard-sweeper';
import { MembersRepository } from './members.repository';
import { SessionsRepository } from './sessions.repository';
import { SignInAttempts } from './sign-in-attempts';
import { MEMBER_SECRET_SEALER, TwoFactor } from './two-factor';

/** The dashboard for a partner's people: accounts, sessions and pages (docs/dashboard.md). */
@Module({
  controllers: [DashboardController],
  providers: [
    DashboardAssets,
    DashboardAuth,
    DashboardSweeper,
    MembersRepository,
    SessionsRepository,
    SignInAttempts,
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
