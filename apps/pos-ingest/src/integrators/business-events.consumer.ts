import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { BusinessProvisionedV1, BusinessProvisionedV1Payload, EventEnvelope, Topics } from '@payments/contracts';
import { EventHandler } from '@payments/platform-kafka';
import { DataSource } from 'typeorm';

/** Keeps each business's POS key (still sealed) so its terminals can be served. */
@Controller()
export class BusinessEventsConsumer {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @EventHandler(Topics.businessEvents)
  async handle(event: EventEnvelope<BusinessProvisionedV1Payload>): Promise<void> {
    if (event?.type !== BusinessProvisionedV1) return;
    const { businessId, mode, sealedPosEncryptionKey } = event.payload;
    // Idempotent by the primary key: a redelivered event changes nothing.
    await this.dataSource.query(
      `INSERT INTO pos_ingest.integrators (business_id, mode, pos_key_sealed) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [businessId, mode, sealedPosEncryptionKey],
    );
  }
}
