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
}
