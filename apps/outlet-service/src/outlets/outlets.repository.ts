import { Injectable } from '@nestjs/common';
import { newUlid } from '@payments/platform-crypto';
import { firstRow, singleRow } from '@payments/platform-database';
import { EntityManager, QueryFailedError } from 'typeorm';

/** A row of outlets.outlets. */
export interface OutletRow {
  id: string;
  account_name: string;
  external_reference: string | null;
  address: string | null;
  created_at: Date;
}

export interface NewOutlet {
  accountName: string;
  externalReference: string | null;
  address: string | null;
}

/** What a search matches: externalReference exactly, or accountName by case-insensitive prefix. */
export interface OutletSearch {
  term: string | null;
  limit: number;
  offset: number;
}

/** outlets.outlets, always within one business. */
@Injectable()
export class OutletsRepository {
  /** Null when the business already has an outlet with this externalReference. */
  async insert(em: EntityManager, businessId: string, outlet: NewOutlet): Promise<OutletRow | null> {
    try {
      return await singleRow<OutletRow>(
        em,
        `INSERT INTO outlets.outlets (id, business_id, account_name, external_reference, address)
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [newUlid(), businessId, outlet.accountName, outlet.externalReference, outlet.address],
      );
    } catch (error) {
      if (violates(error, 'outlets_business_external_reference_key')) return null;
      throw error;
    }
  }

  async find(em: EntityManager, businessId: string, outletId: string): Promise<OutletRow | undefined> {
    return firstRow<OutletRow>(em, `SELECT * FROM outlets.outlets WHERE business_id = $1 AND id = $2`, [
      businessId,
      outletId,
    ]);
  }

  /** One page, newest first, and the number of all matches. */
  async search(
    em: EntityManager,
    businessId: string,
    search: OutletSearch,
  ): Promise<{ rows: OutletRow[]; total: number }> {
    const prefix = search.term === null ? null : `${search.term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = (await em.query(
      `SELECT *, count(*) OVER () AS total FROM outlets.outlets
       WHERE business_id = $1 AND ($2::text IS NULL OR external_reference = $2 OR lower(account_name) LIKE $3)
       ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [businessId, search.term, prefix, search.limit, search.offset],
    )) as (OutletRow & { total: string })[];
    if (rows.length > 0) return { rows, total: Number(rows[0].total) };
    // A page past the end has no rows to carry the window count.
    const { total } = await singleRow<{ total: string }>(
      em,
      `SELECT count(*) AS total FROM outlets.outlets
       WHERE business_id = $1 AND ($2::text IS NULL OR external_reference = $2 OR lower(account_name) LIKE $3)`,
      [businessId, search.term, prefix],
    );
    return { rows, total: Number(total) };
  }
}

export function violates(error: unknown, constraint: string): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string }).constraint === constraint;
}
