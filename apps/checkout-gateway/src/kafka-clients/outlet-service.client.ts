import { Injectable } from '@nestjs/common';
import { OutletCommand, OutletCommandResults, Topics } from '@payments/contracts';
import { CommandClient } from '@payments/platform-kafka';

import { Env } from '../config/env';
import { ServiceClient } from './service-client';

@Injectable()
export class OutletServiceClient extends ServiceClient<OutletCommand, OutletCommandResults> {
  constructor(client: CommandClient, env: Env) {
    super(
      client,
      Topics.outletCommands,
      env.SERVICE_TIMEOUT_MS,
      'The wallet service did not answer in time; retry the request',
    );
  }
}
