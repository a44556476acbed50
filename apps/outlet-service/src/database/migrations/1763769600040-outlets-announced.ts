import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * pos-ingest now registers a terminal only to an outlet it has heard of, from the
 * outlet.opened.v1 that each new outlet queues on business.events.v1. Outlets created before
 * this release are announced once here, through the outbox like any other event; pos-ingest
 * keeps an outlet it hears of twice once.
 */
export class OutletsAnnounced1763769600040 implements MigrationInterface {
  name = 'OutletsAnnounced1763769600040';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `INSERT INTO "outlets"."outbox" ("id", "topic", "message_key", "payload", "headers")
       SELECT a.event_id, 'business.events.v1', a.business_id,
         json_build_object(
           'eventId', a.event_id, 'type', 'outlet.opened.v1', 'occurredAt', to_json(a.created_at),
           'businessId', a.business_id,
           'payload', json_build_object('businessId', a.business_id, 'outletId', a.id)
         ),
         json_build_object('event-id', a.event_id, 'event-type', 'outlet.opened.v1')
       FROM (
         SELECT gen_random_uuid() AS event_id, o.id, o.business_id, o.created_at
         FROM "outlets"."outlets" o
       ) a
       ORDER BY a.created_at, a.id`,
    );
  }

  async down(): Promise<void> {
    // The announcements may already be published; there is nothing to take back.
  }
}
