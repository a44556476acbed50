import { keyRingSettingsOf } from '@payments/platform-config';
import { KeyRing } from '@payments/platform-crypto';
import { Gauge, Registry } from 'prom-client';

/**
 * `platform_key_ring_key`: for each key ring setting of the app, the id of each key it holds
 * (never the key), and whether that key seals or only opens. A rotation's step is done once
 * every pod of every app that holds the ring shows the new key (docs/operations.md, "Rotating keys").
 */
export function exportKeyRings(registry: Registry, env: object): void {
  const gauge = new Gauge({
    name: 'platform_key_ring_key',
    help: 'The keys of each key ring setting, by id: 1 for each key held, labelled sealing or opening',
    labelNames: ['setting', 'key_id', 'use'] as const,
    registers: [registry],
  });
  for (const setting of keyRingSettingsOf(env)) {
    const value = (env as Record<string, unknown>)[setting];
    if (typeof value !== 'string' || value === '') continue;
    const ring = KeyRing.parse(value, setting);
    for (const key of ring.keys) {
      gauge.set({ setting, key_id: key.id, use: key === ring.current ? 'sealing' : 'opening' }, 1);
    }
  }
}
