import { Sealer } from '@payments/platform-crypto';
import { SealedColumn } from '@payments/platform-database';

import { Env } from '../config/env';

/**
 * What card-processor keeps sealed, for `npm run keys:reseal` (docs/operations.md, "Rotating
 * keys"): a card held for its verification steps, and a request's PAN until its reversal or
 * refund no longer needs it.
 */
export function sealedColumns(env: Env): SealedColumn[] {
  const cards = new Sealer(env.CARD_DATA_KEY);
  const byId = { schema: 'card_processor', key: ['id'], boundTo: 'id', sealer: cards };
  return [
    { ...byId, table: 'card_charges', column: 'sealed_card' },
    { ...byId, table: 'network_requests', column: 'sealed_pan' },
  ];
}
