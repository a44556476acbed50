import { Injectable } from '@nestjs/common';
import { CardCommand, CardCommandResults, Topics } from '@payments/contracts';
import { CommandClient } from '@payments/platform-kafka';

import { Env } from '../config/env';
import { ServiceClient } from './service-client';

@Injectable()
export class CardServiceClient extends ServiceClient<CardCommand, CardCommandResults> {
  constructor(client: CommandClient, env: Env) {
    super(
      client,
      Topics.cardCommands,
      env.SERVICE_TIMEOUT_MS,
      'The card processor did not answer in time; retrying the same request is safe',
      'PROCESSOR_UNAVAILABLE',
    );
  }
}
