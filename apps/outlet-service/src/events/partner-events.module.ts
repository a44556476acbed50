import { Module } from '@nestjs/common';

import { PartnerEventsOutbox } from './partner-events';

/** Webhook-visible events, queued in the writer's transaction by every feature that has news. */
@Module({ providers: [PartnerEventsOutbox], exports: [PartnerEventsOutbox] })
export class PartnerEventsModule {}
