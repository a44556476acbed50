import { Module } from '@nestjs/common';

import { CardAttemptsRepository } from './card-attempts.repository';
import { CardTestingDefence } from './card-testing.defence';

@Module({
  providers: [CardAttemptsRepository, CardTestingDefence],
  exports: [CardTestingDefence],
})
export class CardTestingModule {}
