import { IsIn, IsInt, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';

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

/** GET /webhooks/deliveries */
export class ListDeliveriesQuery extends PageQuery {
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
