import { IsIn, IsNotEmpty, IsString } from 'class-validator';

import {
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
  WebhookEndpointResponse,
} from '../http/webhooks/webhooks.dto';
import { Nested } from '../validation/nested';
import { ForBusiness } from './scopes';

/** Requests the gateway sends to webhook-dispatcher on Topics.webhookCommands (request/reply). */
export class GetEndpointCommand extends ForBusiness {
  @IsIn(['getEndpoint'])
  type!: 'getEndpoint';
}

export class SetEndpointCommand extends ForBusiness {
  @IsIn(['setEndpoint'])
  type!: 'setEndpoint';

  @IsString()
  @IsNotEmpty()
  url!: string;
}

export class ListDeliveriesCommand extends ForBusiness {
  @IsIn(['listDeliveries'])
  type!: 'listDeliveries';

  @Nested(() => ListDeliveriesQuery)
  query!: ListDeliveriesQuery;
}

export class GetDeliveryCommand extends ForBusiness {
  @IsIn(['getDelivery'])
  type!: 'getDelivery';

  @IsString()
  @IsNotEmpty()
  deliveryId!: string;
}

export class ReplayDeliveryCommand extends ForBusiness {
  @IsIn(['replayDelivery'])
  type!: 'replayDelivery';

  @IsString()
  @IsNotEmpty()
  deliveryId!: string;
}

export class SendTestCommand extends ForBusiness {
  @IsIn(['sendTest'])
  type!: 'sendTest';
}

export type WebhookCommand =
  | GetEndpointCommand
  | SetEndpointCommand
  | ListDeliveriesCommand
  | GetDeliveryCommand
  | ReplayDeliveryCommand
  | SendTestCommand;

/** The contract of each webhook command, by type. */
export const webhookCommandContracts = {
  getEndpoint: GetEndpointCommand,
  setEndpoint: SetEndpointCommand,
  listDeliveries: ListDeliveriesCommand,
  getDelivery: GetDeliveryCommand,
  replayDelivery: ReplayDeliveryCommand,
  sendTest: SendTestCommand,
} satisfies Record<WebhookCommand['type'], new () => unknown>;

/** What each webhook command answers with: the gateway's client and webhook-dispatcher's handlers are both held to it. */
export interface WebhookCommandResults {
  getEndpoint: WebhookEndpointResponse;
  setEndpoint: WebhookEndpointResponse;
  listDeliveries: DeliveryPageResponse;
  getDelivery: DeliveryDetailResponse;
  replayDelivery: DeliveryResponse;
  sendTest: DeliveryResponse;
}
