import { Inject, Injectable } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { OutletCommand, Topics } from '@payments/contracts';
import { KafkaAdmin } from '@payments/platform-kafka';
import { Env } from '../config/env';
import { ServiceClient } from './service-client';

export const OUTLET_SERVICE = Symbol('OUTLET_SERVICE');

@Injectable()
export class OutletServiceClient extends ServiceClient<OutletCommand> {
  constructor(@Inject(OUTLET_SERVICE) client: ClientKafka, kafkaAdmin: KafkaAdmin, env: Env) {
    super(client, kafkaAdmin, Topics.outletCommands, Topics.outletCommandReplies, env.SERVICE_TIMEOUT_MS,
      'The wallet service did not answer in time; retry the request');
  }
}
