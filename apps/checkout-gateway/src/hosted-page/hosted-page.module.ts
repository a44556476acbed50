import { Module } from '@nestjs/common';

import { BusinessesModule } from '../businesses/businesses.module';
import { CheckoutsModule } from '../checkouts/checkouts.module';
import { HostedCheckoutController } from './hosted-checkout.controller';
import { HostedCheckoutService } from './hosted-checkout.service';
import { HostedPageController } from './hosted-page.controller';
import { PageAssets } from './page-assets';

/** The hosted checkout page customers pay on, and the session routes its script calls. */
@Module({
  imports: [BusinessesModule, CheckoutsModule],
  controllers: [HostedPageController, HostedCheckoutController],
  providers: [HostedCheckoutService, PageAssets],
})
export class HostedPageModule {}
