import { Injectable } from '@nestjs/common';
import { EventEnvelope } from '@payments/contracts';
import { singleRow } from '@payments/platform-database';
import { DataSource } from 'typeorm';

/** The money events that can arrive before their business's onboarding does. */
export type AwaitedKind = 'card-charge' | 'pos-outcome';

/** A row of outlets.awaiting_onboarding. */
export interface AwaitingRow {
  event_id: string;
  kind: AwaitedKind;
  event: EventEnvelope<unknown>;
}

/** outlets.awaiting_onboarding: events held until outlets.tenants knows their business. */
@Injectable()
export class AwaitingOnboardingRepository {
  constructor(private readonly dataSource: DataSource) {}

  async count(): Promise<number> {
    const { count } = await singleRow<{ count: number }>(
      this.dataSource,
      `SELECT count(*)::int AS count FROM outlets.awaiting_onboarding`,
    );
    return count;
  }

  /** Holding the same event twice keeps one. */
  async hold(businessId: string, kind: AwaitedKind, event: EventEnvelope<unknown>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO outlets.awaiting_onboarding (event_id, business_id, kind, event) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [event.eventId, businessId, kind, JSON.stringify(event)],
    );
  }

  /** Held events whose business is onboarded now, oldest first. */
  async onboarded(limit: number): Promise<AwaitingRow[]> {
    return (await this.dataSource.query(
      `SELECT a.event_id, a.kind, a.event FROM outlets.awaiting_onboarding a
       WHERE EXISTS (SELECT 1 FROM outlets.tenants t WHERE t.business_id = a.business_id)
       ORDER BY a.received_at LIMIT $1`,
      [limit],
    )) as AwaitingRow[];
  }

  async release(eventId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM outlets.awaiting_onboarding WHERE event_id = $1`, [eventId]);
  }
}
