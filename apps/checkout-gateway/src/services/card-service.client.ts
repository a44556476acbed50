import { Inject, Injectable } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { CardCommand, Topics } from '@payments/contracts';
import { KafkaAdmin } from '@payments/platform-kafka';
import { Env } from '../config/env';
import { ServiceClient } from './service-client';

export const CARD_SERVICE = Symbol('CARD_SERVICE');

@Injectable()
export class CardServiceClient extends ServiceClient<CardCommand> {
  constructor(@Inject(CARD_SERVICE) client: ClientKafka, kafkaAdmin: KafkaAdmin, env: Env) {
    super(client, kafkaAdmin, Topics.cardCommands, Topics.cardCommandReplies, env.SERVICE_TIMEOUT_MS,
      'The card processor did not answer in time; retrying the same request is safe', 'PROCESSOR_UNAVAILABLE');
  }
}
