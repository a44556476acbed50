import { SealedFormat, Sealer, SealerOptions } from './sealing';

/** The setting every app's Env has (PlatformEnv) that says how its sealers write. */
export interface SealingSettings {
  SEALED_FORMAT: SealedFormat;
}

/**
 * An app's sealer of one kind (Sealer, ApiKeySealer, …) on the ring `keys` lists, writing as
 * SEALED_FORMAT says. Apps make their sealers here, so that none forgets the format: it would
 * seal `v2` while a release before rings, which opens `v1` only, may still run beside this one.
 * (keys-reseal's sealed columns seal `v2` only, and refuse to run under `v1`.)
 */
export function sealerFor<S extends Sealer>(
  sealerClass: new (keys: string, options: SealerOptions) => S,
  keys: string,
  settings: SealingSettings,
): S {
  return new sealerClass(keys, { format: settings.SEALED_FORMAT });
}
