import { webhookCatalog, webhookSchemas } from '@payments/contracts';
import { AppSpec } from '@payments/platform-bootstrap';

import { BusinessesModule } from './businesses/businesses.module';
import { CheckoutsModule } from './checkouts/checkouts.module';
import { Env } from './config/env';
import { DashboardModule } from './dashboard/dashboard.module';
import { database } from './database/data-source';
import { HostedPageModule } from './hosted-page/hosted-page.module';
import { OutletsModule } from './outlets/outlets.module';
import { GatewayRateLimitsModule } from './rate-limits/rate-limits.module';
import { RefundsModule } from './refunds/refunds.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { TransactionsModule } from './transactions/transactions.module';
import { TransfersModule } from './transfers/transfers.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** How the gateway is built: shared by main.ts and the integration tests. */
export const gatewayApp: AppSpec<Env> = {
  envClass: Env,
  database,
  features: [
    GatewayRateLimitsModule,
    BusinessesModule,
    HostedPageModule,
    CheckoutsModule,
    OutletsModule,
    TransfersModule,
    TransactionsModule,
    RefundsModule,
    SandboxModule,
    WebhooksModule,
    DashboardModule,
  ],
  docs: {
    title: 'Payments API',
    description:
      'Hosted checkout, card payments, outlets and wallets for Nigerian merchants. Every response is an envelope ' +
      '{status, statusCode, message, data}; errors carry a stable data.code. Amounts are kobo, as strings.',
    webhooks: { catalog: webhookCatalog, schemas: webhookSchemas },
  },
};
