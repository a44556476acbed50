import { Injectable } from '@nestjs/common';
import { BusinessMode } from '@payments/contracts';
import { firstRow } from '@payments/platform-database';
import { DataSource } from 'typeorm';

/** A terminal joined with its business's mode and sealed POS key. */
export interface TerminalRow {
  serial_number: string;
  business_id: string;
  outlet_id: string | null;
  mode: BusinessMode;
  pos_key_sealed: string;
  /** The terminal's PIN key under the PIN security module's master key; null when it has none. */
  pin_key_under_lmk: string | null;
}

/** A terminal's PIN key as registration leaves it: the one it was given, or the one it keeps. */
export interface PinKeyChange {
  /** Wrapped under the PIN master key; null for none. */
  keyUnderLmk: string | null;
  /** Replace a key the terminal has (an operator rolling it); otherwise a key it has is kept. */
  replace: boolean;
}

export interface UnknownOutletTerminal {
  serialNumber: string;
  businessId: string;
  outletId: string;
}

/**
 * pos_ingest.terminals, pos_ingest.integrators (the businesses pos-ingest serves) and
 * pos_ingest.outlets (their outlets, as outlet-service announced them). Built on a
 * data source rather than injected one, so the operator CLI uses the same queries as the app.
 */
@Injectable()
export class TerminalsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** By serial number alone: a submission names its terminal before anything else is known. */
  async find(serialNumber: string): Promise<TerminalRow | undefined> {
    return firstRow<TerminalRow>(
      this.dataSource,
      `SELECT t.serial_number, t.business_id, t.outlet_id, i.mode, i.pos_key_sealed, t.pin_key_under_lmk
       FROM pos_ingest.terminals t JOIN pos_ingest.integrators i USING (business_id) WHERE t.serial_number = $1`,
      [serialNumber],
    );
  }

  async businessKnown(businessId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM pos_ingest.integrators WHERE business_id = $1`, [
      businessId,
    ])) as unknown[];
    return rows.length === 1;
  }

  /** Keeps a business's POS key, still sealed; a second call for the same business changes nothing. */
  async addBusiness(businessId: string, mode: BusinessMode, posKeySealed: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO pos_ingest.integrators (business_id, mode, pos_key_sealed) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [businessId, mode, posKeySealed],
    );
  }

  /** Keeps an outlet outlet-service announced; hearing of it again changes nothing. */
  async addOutlet(businessId: string, outletId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO pos_ingest.outlets (business_id, outlet_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [businessId, outletId],
    );
  }

  /** Whether outlet-service announced this outlet for this business (another business's outlet is not known). */
  async outletKnown(businessId: string, outletId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM pos_ingest.outlets WHERE business_id = $1 AND outlet_id = $2`,
      [businessId, outletId],
    )) as unknown[];
    return rows.length === 1;
  }

  /**
   * Terminals registered to an outlet that is not one of their business's known outlets (only
   * possible before registration checked the outlet): their approved transactions are credited to
   * the settlement wallet instead. Every business's when `businessId` is null, for operators.
   */
  async withUnknownOutlets(businessId: string | null): Promise<UnknownOutletTerminal[]> {
    return (await this.dataSource.query(
      `SELECT t.serial_number AS "serialNumber", t.business_id AS "businessId", t.outlet_id AS "outletId"
       FROM pos_ingest.terminals t
       WHERE t.outlet_id IS NOT NULL AND ($1::text IS NULL OR t.business_id = $1)
         AND NOT EXISTS (SELECT 1 FROM pos_ingest.outlets o WHERE o.business_id = t.business_id AND o.outlet_id = t.outlet_id)
       ORDER BY t.business_id, t.serial_number`,
      [businessId],
    )) as UnknownOutletTerminal[];
  }

  /**
   * Registers the terminal or moves it to another outlet, giving it `pinKey` unless it has a PIN
   * key already and `replace` is false. The terminal's PIN key afterwards (null for none), or
   * undefined when the terminal belongs to another business.
   */
  async register(
    businessId: string,
    serialNumber: string,
    outletId: string | null,
    pinKey: PinKeyChange = { keyUnderLmk: null, replace: false },
  ): Promise<{ pinKeyUnderLmk: string | null } | undefined> {
    const rows = (await this.dataSource.query(
      `INSERT INTO pos_ingest.terminals (serial_number, business_id, outlet_id, pin_key_under_lmk) VALUES ($1, $2, $3, $4)
       ON CONFLICT (serial_number) DO UPDATE SET outlet_id = EXCLUDED.outlet_id,
         pin_key_under_lmk = CASE WHEN $5::boolean AND EXCLUDED.pin_key_under_lmk IS NOT NULL THEN EXCLUDED.pin_key_under_lmk
                                  ELSE COALESCE(pos_ingest.terminals.pin_key_under_lmk, EXCLUDED.pin_key_under_lmk) END
       WHERE pos_ingest.terminals.business_id = EXCLUDED.business_id
       RETURNING pin_key_under_lmk AS "pinKeyUnderLmk"`,
      [serialNumber, businessId, outletId, pinKey.keyUnderLmk, pinKey.replace],
    )) as { pinKeyUnderLmk: string | null }[];
    return rows[0];
  }
}
