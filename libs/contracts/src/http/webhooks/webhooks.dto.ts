import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';

import { PartnerEvents } from '../../events/partner-event.v1';
import { IsHttpUrl } from '../../validation/http-url';
import { IsInstant } from '../../validation/instant';
import { NestedList } from '../../validation/nested';
import { PageQuery } from '../page.query';

/** `held`: the endpoint has no URL or is disabled; sent once a URL is set (PUT /webhooks/endpoint). */
export const deliveryStatuses = ['pending', 'held', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** PUT /webhooks/endpoint */
export class SetWebhookEndpointRequest {
  /** Where events are POSTed. Live businesses must use https and a public address. */
  @IsHttpUrl()
  @MaxLength(2000)
  url!: string;
}

export class WebhookEndpointResponse {
  @IsOptional()
  @IsString()
  url!: string | null;

  /** Verifies the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). */
  @IsString()
  signingSecret!: string;

  @IsIn(['active', 'disabled'])
  status!: 'active' | 'disabled';

  @IsOptional()
  @IsString()
  disabledReason!: string | null;
}

/** Endpoints a business may add beside its default one. */
export const maxWebhookEndpoints = 10;

/** The id of the endpoint `PUT /webhooks/endpoint` sets: every business has it, and it receives every event. */
export const defaultWebhookEndpointId = 'default';

/**
 * What an endpoint's filter may name: `*` for every event, or events of the catalogue. The test
 * event is among them, as the catalogue lists it, though it goes to the endpoint it is sent to
 * whatever that endpoint's filter.
 */
export const subscribableEvents = Object.values(PartnerEvents);

/** An endpoint's event filter: `["*"]` (`*` stands alone), or distinct events of the catalogue. */
function EventFilter(): PropertyDecorator {
  const rules = [
    ArrayNotEmpty(),
    ArrayMaxSize(50),
    ArrayUnique(),
    IsIn(['*', ...subscribableEvents], {
      each: true,
      message: 'each of events must be * or an event of the catalogue',
    }),
    ValidateBy({
      name: 'isEventFilter',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && (value.length === 1 || !value.includes('*')),
        defaultMessage: () => `events must be ["*"] or events from: ${subscribableEvents.join(', ')}`,
      },
    }),
  ];
  return (target, property) => rules.forEach((rule) => rule(target, property));
}

/** The longest a rolled secret keeps signing beside the new one. */
export const maxSecretGraceHours = 72;

/** POST /webhooks/endpoints */
export class CreateWebhookEndpointRequest {
  /** Where events are POSTed. Live businesses must use https and a public address. */
  @IsHttpUrl()
  @MaxLength(2000)
  url!: string;

  /** `["*"]` (the default) for every event, or the events this endpoint receives. */
  @IsOptional()
  @EventFilter()
  events?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;

  /** A disabled endpoint holds its deliveries until it is enabled again. Default true. */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** PATCH /webhooks/endpoints/{endpointId}: what is sent changes, what is left out stays. */
export class UpdateWebhookEndpointRequest {
  @IsOptional()
  @IsHttpUrl()
  @MaxLength(2000)
  url?: string;

  @IsOptional()
  @EventFilter()
  events?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** POST /webhooks/endpoints/{endpointId}/roll-secret */
export class RollWebhookSecretRequest {
  /** Hours the previous secret keeps signing beside the new one (0 to 72, default 24). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(maxSecretGraceHours)
  gracePeriodHours?: number;
}

/** POST /webhooks/test */
export class SendTestWebhookRequest {
  /** The endpoint to send it to; the default endpoint when left out. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'endpointId must be an endpoint id' })
  endpointId?: string;
}

export class WebhookEndpointDetailResponse {
  /** `default` for the endpoint PUT /webhooks/endpoint sets; `we_…` for the others. */
  @IsString()
  endpointId!: string;

  @IsOptional()
  @IsString()
  url!: string | null;

  /** `["*"]`, or the events it receives. */
  @IsArray()
  @IsString({ each: true })
  events!: string[];

  @IsOptional()
  @IsString()
  description!: string | null;

  /** Set by you: a disabled endpoint holds its deliveries. */
  @IsBoolean()
  enabled!: boolean;

  /** `disabled` after the URL answered 410 Gone; setting a URL makes it `active` again. */
  @IsIn(['active', 'disabled'])
  status!: 'active' | 'disabled';

  @IsOptional()
  @IsString()
  disabledReason!: string | null;

  /** Verifies the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). */
  @IsString()
  signingSecret!: string;

  /** Until then, webhook-signature also carries a signature made with the previous secret. */
  @IsOptional()
  @IsISO8601()
  previousSecretExpiresAt!: string | null;

  @IsOptional()
  @IsISO8601()
  createdAt!: string | null;
}

export class WebhookEndpointListResponse {
  /** The default endpoint first, then the others as they were created. */
  @NestedList(() => WebhookEndpointDetailResponse)
  items!: WebhookEndpointDetailResponse[];
}

/** GET /webhooks/deliveries */
export class ListDeliveriesQuery extends PageQuery {
  /** Deliveries to one endpoint (`default`, or a `we_…` id). */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'endpointId must be an endpoint id' })
  endpointId?: string;

  @IsOptional()
  @IsIn(deliveryStatuses)
  status?: DeliveryStatus;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  event?: string;

  /** Created at or after (ISO 8601, a date that exists). */
  @IsOptional()
  @IsInstant()
  from?: string;

  /** Created before (ISO 8601, a date that exists). */
  @IsOptional()
  @IsInstant()
  to?: string;
}

export class DeliveryResponse {
  @IsString()
  deliveryId!: string;

  /** The x-event-id header: deduplicate on it. */
  @IsString()
  eventId!: string;

  @IsString()
  event!: string;

  @IsIn(['business', 'callback', 'test', 'replay'])
  target!: 'business' | 'callback' | 'test' | 'replay';

  /** The endpoint it goes to (`default` or `we_…`); null for a checkout's callback. */
  @IsOptional()
  @IsString()
  endpointId!: string | null;

  @IsString()
  /** Null while a delivery is held for an endpoint that has no URL yet. */
  @IsOptional()
  @IsString()
  url!: string | null;

  @IsIn(deliveryStatuses)
  status!: DeliveryStatus;

  @IsInt()
  attempts!: number;

  @IsOptional()
  @IsISO8601()
  nextAttemptAt!: string | null;

  @IsOptional()
  @IsInt()
  lastStatusCode!: number | null;

  @IsISO8601()
  createdAt!: string;
}

export class DeliveryAttemptResponse {
  @IsInt()
  attempt!: number;

  @IsISO8601()
  startedAt!: string;

  @IsInt()
  latencyMs!: number;

  @IsOptional()
  @IsInt()
  statusCode!: number | null;

  @IsOptional()
  @IsString()
  error!: string | null;

  /** The first 1 KB of the receiver's answer; never kept from a private address. */
  @IsOptional()
  @IsString()
  responseBody!: string | null;
}

export class DeliveryDetailResponse extends DeliveryResponse {
  @NestedList(() => DeliveryAttemptResponse)
  attemptLog!: DeliveryAttemptResponse[];
}

export class DeliveryPageResponse {
  @NestedList(() => DeliveryResponse)
  items!: DeliveryResponse[];

  @IsInt()
  total!: number;

  @IsInt()
  page!: number;

  @IsInt()
  limit!: number;
}
