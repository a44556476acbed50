import { Injectable } from '@nestjs/common';
import { BusinessMode } from '@payments/contracts';
import { PosKeySealer } from '@payments/platform-crypto';
import { LRUCache } from 'lru-cache';

import { Env } from '../config/env';
import { TerminalsRepository } from './terminals.repository';

export interface Terminal {
  serialNumber: string;
  businessId: string;
  outletId: string | null;
  mode: BusinessMode;
  posKey: string;
  /** Its PIN key under the PIN master key, passed on sealed with the card; null when it has none. */
  pinKeyUnderLmk: string | null;
}

/**
 * TerminalsService and their businesses' POS keys, read through a bounded cache with a TTL: every
 * instance reads the same database, so any instance serves any terminal.
 */
@Injectable()
export class TerminalsService {
  private readonly cache: LRUCache<string, Terminal | false>;

  constructor(
    private readonly terminals: TerminalsRepository,
    private readonly sealer: PosKeySealer,
    env: Env,
  ) {
    this.cache = new LRUCache({ max: 50_000, ttl: Math.max(1, env.TERMINAL_CACHE_TTL_MS) });
  }

  async find(serialNumber: string): Promise<Terminal | null> {
    const cached = this.cache.get(serialNumber);
    if (cached !== undefined) return cached || null;
    const row = await this.terminals.find(serialNumber);
    const terminal = row
      ? {
          serialNumber: row.serial_number,
          businessId: row.business_id,
          outletId: row.outlet_id,
          mode: row.mode,
          posKey: this.sealer.open(row.pos_key_sealed, row.business_id),
          pinKeyUnderLmk: row.pin_key_under_lmk,
        }
      : null;
    // Unknown serials are remembered briefly only, so a newly registered terminal works at once.
    this.cache.set(serialNumber, terminal ?? false, terminal ? undefined : { ttl: 2000 });
    return terminal;
  }
}
