import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Metrics } from '@payments/platform-metrics';

import { Env } from '../config/env';
import { IssuerModule } from '../issuer/issuer.module';
import { CardAcceptorsRepository } from './card-acceptors.repository';
import { CardAuthoriser } from './card-authoriser';
import { CardNetworks } from './card-networks';
import { NetworkRequestsRepository } from './network-requests.repository';
import { networksFromSettings } from './network-settings';
import { PIN_SECURITY, pinSecurityProvider } from './pin-security.provider';
import { ReconciliationMetrics } from './reconciliation/reconciliation-metrics';
import { ReversalsWorker } from './reversals.worker';

/** The card networks, the network step every card payment goes through, and its reversals. */
@Module({
  imports: [IssuerModule],
  providers: [
    NetworkRequestsRepository,
    CardAcceptorsRepository,
    {
      provide: CardNetworks,
      inject: [Env, Metrics, NetworkRequestsRepository],
      useFactory: (env: Env, metrics: Metrics, requests: NetworkRequestsRepository) =>
        new CardNetworks(networksFromSettings(env, metrics.registry, () => requests.nextStan())),
    },
    CardAuthoriser,
    ReversalsWorker,
    pinSecurityProvider,
    ReconciliationMetrics,
  ],
  exports: [CardAuthoriser, CardNetworks, NetworkRequestsRepository, PIN_SECURITY],
})
export class CardNetworkModule implements OnApplicationShutdown {
  constructor(@Inject(CardNetworks) private readonly networks: CardNetworks) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.networks.all().map((network) => network.close()));
  }
}
