import { Inject, Injectable } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { Topics, WebhookCommand } from '@payments/contracts';
import { KafkaAdmin } from '@payments/platform-kafka';
import { Env } from '../config/env';
import { ServiceClient } from './service-client';

export const WEBHOOK_SERVICE = Symbol('WEBHOOK_SERVICE');

@Injectable()
export class WebhookServiceClient extends ServiceClient<WebhookCommand> {
  constructor(@Inject(WEBHOOK_SERVICE) client: ClientKafka, kafkaAdmin: KafkaAdmin, env: Env) {
    super(client, kafkaAdmin, Topics.webhookCommands, Topics.webhookCommandReplies, env.SERVICE_TIMEOUT_MS,
      'The webhook service did not answer in time; retry the request');
  }
}
