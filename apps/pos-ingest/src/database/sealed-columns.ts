import { PosKeySealer } from '@payments/platform-crypto';
import { SealedColumn } from '@payments/platform-database';

import { Env } from '../config/env';

/** What pos-ingest keeps sealed, for `npm run keys:reseal` (docs/operations.md, "Rotating keys"). */
export function sealedColumns(env: Env): SealedColumn[] {
  return [
    {
      schema: 'pos_ingest',
      table: 'integrators',
      key: ['business_id'],
      column: 'pos_key_sealed',
      boundTo: 'business_id',
      sealer: new PosKeySealer(env.POS_KEY_SEALING_KEY),
    },
  ];
}
