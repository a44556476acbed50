import { Injectable } from '@nestjs/common';
import { Topics, WebhookCommand, WebhookCommandResults } from '@payments/contracts';
import { CommandClient } from '@payments/platform-kafka';

import { Env } from '../config/env';
import { ServiceClient } from './service-client';

@Injectable()
export class WebhookServiceClient extends ServiceClient<WebhookCommand, WebhookCommandResults> {
  constructor(client: CommandClient, env: Env) {
    super(
      client,
      Topics.webhookCommands,
      env.SERVICE_TIMEOUT_MS,
      'The webhook service did not answer in time; retry the request',
    );
  }
}
