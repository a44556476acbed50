import { Controller, Logger } from '@nestjs/common';
import { BusinessProvisionedV1, EventOf, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { ProcessedEvents } from '@payments/platform-outbox';
import { DataSource } from 'typeorm';

import { SystemWalletKind, WalletsRepository } from '../money/wallets.repository';
import { AwaitingOnboarding } from './awaiting-onboarding';
import { BusinessesRepository } from './businesses.repository';

const consumer = 'outlet-service.tenants';

/** A business's own wallets, and how their names end. */
const systemWallets: Record<SystemWalletKind, string> = {
  settlement: 'settlement',
  rail: 'bank rail',
  suspense: 'suspense',
  revenue: 'fees',
};

/** Gives every newly provisioned business its agent assignment and its settlement, rail, suspense and revenue wallets. */
@Controller()
export class BusinessEventsConsumer {
  private readonly logger = new Logger(BusinessEventsConsumer.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly processed: ProcessedEvents,
    private readonly businesses: BusinessesRepository,
    private readonly wallets: WalletsRepository,
    private readonly awaiting: AwaitingOnboarding,
  ) {}

  @EventHandler(Topics.businessEvents)
  async handle(event: EventOf<typeof BusinessProvisionedV1>): Promise<void> {
    if (event?.type !== BusinessProvisionedV1) return;
    const provisioned = await this.dataSource.transaction(async (em) => {
      if (!(await this.processed.firstDelivery(em, consumer, event.eventId))) return false;
      const { businessId, name, mode } = event.payload;
      if (!(await this.businesses.insert(em, { businessId, name, mode }))) return false;
      for (const [type, label] of Object.entries(systemWallets) as [SystemWalletKind, string][]) {
        await this.wallets.create(em, {
          businessId,
          outletId: null,
          type,
          accountName: `${name} (${label})`,
          // Only the settlement wallet is paid into from outside.
          withAccountNumber: type === 'settlement',
        });
      }
      this.logger.log({ businessId }, 'tenant provisioned');
      return true;
    });
    if (provisioned) this.awaiting.onboarded();
  }
}
