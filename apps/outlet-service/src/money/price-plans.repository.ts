import { Injectable } from '@nestjs/common';
import { firstRow } from '@payments/platform-database';
import { EntityManager } from 'typeorm';

import { PricePlan, Product } from './price';

interface PlanRow {
  percent_bps: number;
  cap_kobo: string | null;
  floor_kobo: string;
  flat_kobo: string;
  commission_bps: number;
}

/** outlets.price_plans: append-only; the newest row for a business and product is in force, else the default's. */
@Injectable()
export class PricePlansRepository {
  async current(em: EntityManager, businessId: string, product: Product): Promise<PricePlan> {
    const row = await firstRow<PlanRow>(
      em,
      `SELECT percent_bps, cap_kobo, floor_kobo, flat_kobo, commission_bps FROM outlets.price_plans
       WHERE product = $2 AND (business_id = $1 OR business_id IS NULL)
       ORDER BY business_id IS NULL, id DESC LIMIT 1`,
      [businessId, product],
    );
    if (!row) throw new Error(`no price plan for ${product}, not even the default`);
    return {
      percentBps: row.percent_bps,
      capKobo: row.cap_kobo === null ? null : BigInt(row.cap_kobo),
      floorKobo: BigInt(row.floor_kobo),
      flatKobo: BigInt(row.flat_kobo),
      commissionBps: row.commission_bps,
    };
  }

  /** A new plan in force for the business's next payments of this product (the default's when businessId is null). */
  async set(em: EntityManager, businessId: string | null, product: Product, plan: PricePlan, setBy: string) {
    await em.query(
      `INSERT INTO outlets.price_plans (business_id, product, percent_bps, cap_kobo, floor_kobo, flat_kobo, commission_bps, set_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        businessId,
        product,
        plan.percentBps,
        plan.capKobo?.toString() ?? null,
        plan.floorKobo.toString(),
        plan.flatKobo.toString(),
        plan.commissionBps,
        setBy,
      ],
    );
  }
}
