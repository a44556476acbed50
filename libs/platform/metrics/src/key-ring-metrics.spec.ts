import { randomBytes } from 'node:crypto';

import { KeyRingSetting, loadEnv, PlatformEnv } from '@payments/platform-config';
import { keyIdOf } from '@payments/platform-crypto';
import { Registry } from 'prom-client';

import { exportKeyRings } from './key-ring-metrics';

class RingsEnv extends PlatformEnv {
  @KeyRingSetting() CARD_DATA_KEY: string = '';
  @KeyRingSetting() PAGE_CURSOR_KEY: string = '';
}

describe('the key rings as metrics', () => {
  it('shows each key a ring holds by its id, the sealing one apart, and never a key', async () => {
    const [sealing, opening, cursor] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const env = loadEnv(RingsEnv, {
      CARD_DATA_KEY: `${sealing.toString('base64')},${opening.toString('base64')}`,
      PAGE_CURSOR_KEY: cursor.toString('base64'),
    });
    const registry = new Registry();
    exportKeyRings(registry, env);
    const exported = await registry.getSingleMetricAsString('platform_key_ring_key');
    const series = exported.split('\n').filter((line) => line.startsWith('platform_key_ring_key{'));
    expect(series.sort()).toEqual(
      [
        `platform_key_ring_key{setting="CARD_DATA_KEY",key_id="${keyIdOf(sealing)}",use="sealing"} 1`,
        `platform_key_ring_key{setting="CARD_DATA_KEY",key_id="${keyIdOf(opening)}",use="opening"} 1`,
        `platform_key_ring_key{setting="PAGE_CURSOR_KEY",key_id="${keyIdOf(cursor)}",use="sealing"} 1`,
      ].sort(),
    );
    for (const key of [sealing, opening, cursor]) expect(exported).not.toContain(key.toString('base64'));
  });

  it('shows nothing for an app without key rings', async () => {
    const registry = new Registry();
    exportKeyRings(registry, loadEnv(PlatformEnv, {}));
    expect(await registry.getSingleMetricAsString('platform_key_ring_key')).not.toContain('platform_key_ring_key{');
  });
});
