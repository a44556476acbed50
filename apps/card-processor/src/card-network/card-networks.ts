import { BusinessMode } from '@payments/contracts';
import { apiError } from '@payments/platform-envelope';

import { CardNetwork, NetworkName, UnmatchedAnswer } from './card-network';

/** The networks card-processor is connected to: always the sandbox host, the live host when one is configured. */
export class CardNetworks {
  private readonly byNetworkName: ReadonlyMap<NetworkName, CardNetwork>;

  constructor(networks: CardNetwork[]) {
    this.byNetworkName = new Map(networks.map((network) => [network.name, network]));
  }

  /** The network a business's cards go to. A live business without a live host is refused, never simulated. */
  for(mode: BusinessMode): CardNetwork {
    const network = this.byNetworkName.get(mode === 'live' ? 'live' : 'sandbox');
    if (!network) {
      throw apiError(
        'SANDBOX_ONLY',
        'Card payments are not available to live businesses yet: no card network is connected',
      );
    }
    return network;
  }

  /** Whether a business of this mode has a network to pay on. */
  has(mode: BusinessMode): boolean {
    return this.byNetworkName.has(mode === 'live' ? 'live' : 'sandbox');
  }

  byName(name: NetworkName): CardNetwork {
    const network = this.byNetworkName.get(name);
    if (!network) throw new Error(`card network ${name} is not configured`);
    return network;
  }

  all(): CardNetwork[] {
    return [...this.byNetworkName.values()];
  }

  onUnmatchedAnswer(listener: (answer: UnmatchedAnswer) => void): void {
    for (const network of this.byNetworkName.values()) network.onUnmatchedAnswer(listener);
  }
}
