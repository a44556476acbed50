import { readFileSync } from 'node:fs';

import { Registry } from 'prom-client';

import { Env } from '../config/env';
import { CardNetwork, NetworkName } from './card-network';
import { HostConnector, StanSource } from './connection';
import { Iso8583Network } from './iso8583/iso8583-network';

interface HostSettings {
  name: NetworkName;
  address: string;
  tls: boolean;
  acquirerId: string;
  zonePinKey?: string;
}

/** The networks the settings name (CARD_NETWORK_*): the sandbox host always, the live host when its address is set. */
export function networksFromSettings(env: Env, registry: Registry, stans: StanSource): CardNetwork[] {
  const hosts: HostSettings[] = [
    {
      name: 'sandbox',
      address: env.CARD_NETWORK_SANDBOX_ADDRESS,
      tls: env.CARD_NETWORK_SANDBOX_TLS,
      acquirerId: env.CARD_NETWORK_SANDBOX_ACQUIRER_ID,
      zonePinKey: env.CARD_NETWORK_SANDBOX_ZONE_PIN_KEY,
    },
  ];
  if (env.CARD_NETWORK_LIVE_ADDRESS) {
    if (!env.CARD_NETWORK_LIVE_ACQUIRER_ID) {
      throw new Error('CARD_NETWORK_LIVE_ACQUIRER_ID must be set with CARD_NETWORK_LIVE_ADDRESS');
    }
    hosts.push({
      name: 'live',
      address: env.CARD_NETWORK_LIVE_ADDRESS,
      tls: env.CARD_NETWORK_LIVE_TLS,
      acquirerId: env.CARD_NETWORK_LIVE_ACQUIRER_ID,
      zonePinKey: env.CARD_NETWORK_LIVE_ZONE_PIN_KEY,
    });
  }
  const ca = env.CARD_NETWORK_TLS_CA_FILE ? readFileSync(env.CARD_NETWORK_TLS_CA_FILE) : undefined;
  return hosts.map(({ name, address, tls, acquirerId, zonePinKey }) => {
    const separator = address.lastIndexOf(':');
    const connector = new HostConnector({
      name,
      host: address.slice(0, separator),
      port: Number(address.slice(separator + 1)),
      ...(tls ? { tls: { ca } } : {}),
      stans,
      registry,
      connections: env.CARD_NETWORK_CONNECTIONS,
      maxInFlight: env.CARD_NETWORK_MAX_IN_FLIGHT,
      requestTimeoutMs: env.CARD_NETWORK_TIMEOUT_MS,
    });
    return new Iso8583Network(name, acquirerId, connector, zonePinKey);
  });
}
