import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sealer } from '@payments/platform-crypto';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';

import { Env } from '../config/env';

export interface Terminal {
  serialNumber: string;
  businessId: string;
  outletId: string | null;
  mode: 'test' | 'live';
  posKey: string;
}

interface TerminalRow {
  serial_number: string;
  business_id: string;
  outlet_id: string | null;
  mode: 'test' | 'live';
  pos_key_sealed: string;
}

/**
 * Terminals and their businesses' POS keys, read through a bounded cache with a TTL: every
 * instance reads the same database, so any instance serves any terminal.
 */
@Injectable()
export class Terminals {
  private readonly cache: LRUCache<string, Terminal | false>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sealer: Sealer,
    env: Env,
  ) {
    this.cache = new LRUCache({ max: 50_000, ttl: Math.max(1, env.TERMINAL_CACHE_TTL_MS) });
  }

  async find(serialNumber: string): Promise<Terminal | null> {
    const cached = this.cache.get(serialNumber);
    if (cached !== undefined) return cached || null;
    const [row] = (await this.dataSource.query(
      `SELECT t.serial_number, t.business_id, t.outlet_id, i.mode, i.pos_key_sealed
       FROM pos_ingest.terminals t JOIN pos_ingest.integrators i USING (business_id) WHERE t.serial_number = $1`,
      [serialNumber],
    )) as TerminalRow[];
    const terminal = row
      ? {
          serialNumber: row.serial_number,
          businessId: row.business_id,
          outletId: row.outlet_id,
          mode: row.mode,
          posKey: this.sealer.open(row.pos_key_sealed, row.business_id),
        }
      : null;
    // Unknown serials are remembered briefly only, so a newly registered terminal works at once.
    this.cache.set(serialNumber, terminal ?? false, terminal ? undefined : { ttl: 2000 });
    return terminal;
  }
}
