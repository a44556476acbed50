import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';

import {
  CreateWebhookEndpointRequest,
  DeliveryDetailResponse,
  DeliveryPageResponse,
  DeliveryResponse,
  ListDeliveriesQuery,
  maxSecretGraceHours,
  UpdateWebhookEndpointRequest,
  WebhookEndpointDetailResponse,
  WebhookEndpointListResponse,
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

  /** The default endpoint when absent. */
  @IsOptional()
  @IsString()
  endpointId?: string;
}

export class ListEndpointsCommand extends ForBusiness {
  @IsIn(['listEndpoints'])
  type!: 'listEndpoints';
}

/** A command about one endpoint of the business: `default` or a `we_…` id. */
abstract class ForEndpoint extends ForBusiness {
  @IsString()
  @IsNotEmpty()
  endpointId!: string;
}

export class DescribeEndpointCommand extends ForEndpoint {
  @IsIn(['describeEndpoint'])
  type!: 'describeEndpoint';
}

export class CreateEndpointCommand extends ForBusiness {
  @IsIn(['createEndpoint'])
  type!: 'createEndpoint';

  @Nested(() => CreateWebhookEndpointRequest)
  endpoint!: CreateWebhookEndpointRequest;
}

export class UpdateEndpointCommand extends ForEndpoint {
  @IsIn(['updateEndpoint'])
  type!: 'updateEndpoint';

  @Nested(() => UpdateWebhookEndpointRequest)
  changes!: UpdateWebhookEndpointRequest;
}

export class DeleteEndpointCommand extends ForEndpoint {
  @IsIn(['deleteEndpoint'])
  type!: 'deleteEndpoint';
}

export class RollEndpointSecretCommand extends ForEndpoint {
  @IsIn(['rollEndpointSecret'])
  type!: 'rollEndpointSecret';

  @IsInt()
  @Min(0)
  @Max(maxSecretGraceHours)
  gracePeriodHours!: number;

  /** The partner's Idempotency-Key: a retry with it answers the first roll's secret instead of rolling again. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  idempotencyKey?: string;
}

export type WebhookCommand =
  | GetEndpointCommand
  | SetEndpointCommand
  | ListDeliveriesCommand
  | GetDeliveryCommand
  | ReplayDeliveryCommand
  | SendTestCommand
  | ListEndpointsCommand
  | DescribeEndpointCommand
  | CreateEndpointCommand
  | UpdateEndpointCommand
  | DeleteEndpointCommand
  | RollEndpointSecretCommand;

/** The contract of each webhook command, by type. */
export const webhookCommandContracts = {
  getEndpoint: GetEndpointCommand,
  setEndpoint: SetEndpointCommand,
  listDeliveries: ListDeliveriesCommand,
  getDelivery: GetDeliveryCommand,
  replayDelivery: ReplayDeliveryCommand,
  sendTest: SendTestCommand,
  listEndpoints: ListEndpointsCommand,
  describeEndpoint: DescribeEndpointCommand,
  createEndpoint: CreateEndpointCommand,
  updateEndpoint: UpdateEndpointCommand,
  deleteEndpoint: DeleteEndpointCommand,
  rollEndpointSecret: RollEndpointSecretCommand,
} satisfies Record<WebhookCommand['type'], new () => unknown>;

/** What each webhook command answers with: the gateway's client and webhook-dispatcher's handlers are both held to it. */
export interface WebhookCommandResults {
  getEndpoint: WebhookEndpointResponse;
  setEndpoint: WebhookEndpointResponse;
  listDeliveries: DeliveryPageResponse;
  getDelivery: DeliveryDetailResponse;
  replayDelivery: DeliveryResponse;
  sendTest: DeliveryResponse;
  listEndpoints: WebhookEndpointListResponse;
  describeEndpoint: WebhookEndpointDetailResponse;
  createEndpoint: WebhookEndpointDetailResponse;
  updateEndpoint: WebhookEndpointDetailResponse;
  deleteEndpoint: WebhookEndpointDetailResponse;
  rollEndpointSecret: WebhookEndpointDetailResponse;
}
