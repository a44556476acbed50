import { withAppDatabase } from '@payments/platform-bootstrap';
import { ApiKeySealer, PosKeySealer, sealerFor } from '@payments/platform-crypto';
import { Outbox } from '@payments/platform-outbox';

import { BusinessKeysRepository } from '../businesses/business-keys.repository';
import { BusinessKeysService } from '../businesses/business-keys.service';
import { BusinessesRepository } from '../businesses/businesses.repository';
import { BusinessesService } from '../businesses/businesses.service';
import { OnboardingRepository } from '../businesses/onboarding.repository';
import { Env } from '../config/env';
import { MembersRepository } from '../dashboard/members.repository';
import { database } from '../database/data-source';

export interface GatewayServices {
  businesses: BusinessesService;
  keys: BusinessKeysService;
  onboarding: OnboardingRepository;
  members: MembersRepository;
  env: Env;
}

/**
 * The gateway's business services on their own database connection, for the operator commands.
 * Events they write go to the outbox, which a running gateway publishes.
 */
export function withGatewayServices<T>(work: (services: GatewayServices) => Promise<T>): Promise<T> {
  return withAppDatabase(Env, database, (dataSource, env) => {
    const apiKeys = sealerFor(ApiKeySealer, env.API_KEY_SEALING_KEY, env);
    const outbox = new Outbox();
    const keysRepository = new BusinessKeysRepository(dataSource);
    const businesses = new BusinessesService(
      dataSource,
      new BusinessesRepository(dataSource),
      keysRepository,
      outbox,
      apiKeys,
      sealerFor(PosKeySealer, env.POS_KEY_SEALING_KEY, env),
    );
    const keys = new BusinessKeysService(dataSource, keysRepository, businesses, outbox, apiKeys);
    return work({
      businesses,
      keys,
      onboarding: new OnboardingRepository(dataSource),
      members: new MembersRepository(dataSource),
      env,
    });
  });
}
