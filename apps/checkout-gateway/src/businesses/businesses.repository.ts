import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { Business } from './business.entity';

/** gateway.businesses, through its entity. */
@Injectable()
export class BusinessesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(em: EntityManager, business: Omit<Business, 'createdAt'>): Promise<void> {
    await em.insert(Business, business);
  }

  async find(businessId: string): Promise<Business | null> {
    return this.dataSource.getRepository(Business).findOneBy({ id: businessId });
  }

  /** The business a checkout belongs to, in one query; null for an unknown reference. */
  async findByCheckout(reference: string): Promise<Business | null> {
    return this.dataSource
      .getRepository(Business)
      .createQueryBuilder('business')
      .where('business.id = (SELECT business_id FROM gateway.checkouts WHERE reference = :reference)', { reference })
      .getOne();
  }

  /** The default webhook endpoint's URL, as webhook-dispatcher (which keeps it) last answered it. */
  async webhookUrl(businessId: string): Promise<string | null> {
    const business = await this.dataSource.getRepository(Business).findOne({
      select: { webhookUrl: true },
      where: { id: businessId },
    });
    return business?.webhookUrl ?? null;
  }

  async recordWebhookUrl(businessId: string, url: string | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE gateway.businesses SET webhook_url = $2 WHERE id = $1 AND webhook_url IS DISTINCT FROM $2`,
      [businessId, url],
    );
  }
}
