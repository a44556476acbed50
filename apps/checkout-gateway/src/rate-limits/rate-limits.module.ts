import { Global, Module } from '@nestjs/common';
import { RateLimitsModule } from '@payments/platform-rate-limit';

import { database } from '../database/data-source';
import { ClientAddressAdmission, ClientAddressLimitGuard } from './client-address-limit.guard';
import { GatewayRateLimits } from './gateway-rate-limits';

/** Global: the API key guard and the hosted page's controllers, in every feature, count through it. */
@Global()
@Module({
  imports: [RateLimitsModule.forSchema(database.schema)],
  providers: [GatewayRateLimits, ClientAddressAdmission, ClientAddressLimitGuard],
  exports: [GatewayRateLimits, ClientAddressAdmission, ClientAddressLimitGuard],
})
export class GatewayRateLimitsModule {}
