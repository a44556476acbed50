import { Module } from '@nestjs/common';

import { PayoutSettings } from './payout-settings';

/** The sandbox bank rail's behaviour, shared by payouts and refunds, which it settles alike. */
@Module({ providers: [PayoutSettings], exports: [PayoutSettings] })
export class RailsModule {}
