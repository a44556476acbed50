import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The services that keep their own record of each business, from business.provisioned.v1, and
 * refuse its requests until they have it. card-processor keeps none; pos-ingest serves only
 * terminals, which an operator registers once it knows the business (docs/pos.md).
 */
export const onboardingServices = ['outlet-service', 'webhook-dispatcher'] as const;
export type OnboardingService = (typeof onboardingServices)[number];

/** A business whose onboarding some services have not confirmed yet. */
export interface PendingOnboarding {
  businessId: string;
  awaits: string[];
}

/** gateway.businesses.onboarding_awaits: which services have yet to confirm they know a business. */
@Injectable()
export class OnboardingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The services the business still waits for ([] when onboarded); null for an unknown business. */
  async awaits(businessId: string): Promise<string[] | null> {
    const rows = (await this.dataSource.query(`SELECT onboarding_awaits FROM gateway.businesses WHERE id = $1`, [
      businessId,
    ])) as { onboarding_awaits: string[] }[];
    return rows[0]?.onboarding_awaits ?? null;
  }

  /** One statement per confirmation, so two services confirming at once both stay confirmed. */
  async confirm(businessId: string, service: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE gateway.businesses SET onboarding_awaits = array_remove(onboarding_awaits, $2)
       WHERE id = $1 AND $2 = ANY (onboarding_awaits)`,
      [businessId, service],
    );
  }

  /**
   * Businesses created within `withinSeconds` whose onboarding is not confirmed everywhere, newest
   * first: a partner waits on the newest, and older ones a service keeps failing must not fill
   * every batch ahead of it.
   */
  async pending(withinSeconds: number, limit: number): Promise<PendingOnboarding[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, onboarding_awaits FROM gateway.businesses
       WHERE cardinality(onboarding_awaits) > 0 AND created_at > now() - make_interval(secs => $1)
       ORDER BY created_at DESC LIMIT $2`,
      [withinSeconds, limit],
    )) as { id: string; onboarding_awaits: string[] }[];
    return rows.map((row) => ({ businessId: row.id, awaits: row.onboarding_awaits }));
  }
}
