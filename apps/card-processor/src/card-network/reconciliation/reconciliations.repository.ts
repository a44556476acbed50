import { Injectable } from '@nestjs/common';
import { newUlid } from '@payments/platform-crypto';
import { DataSource } from 'typeorm';

import { NetworkName } from '../card-network';
import { processingCodeParts } from '../iso8583/messages';
import { lagosDay } from '../lagos-time';
import { RequestPurpose, RequestState } from '../network-requests.repository';
import { ReconciliationReport } from './reconciliation-report';
import { RecordedRequest } from './settlement-totals';

interface RequestRow {
  id: string;
  purpose: RequestPurpose;
  payment_reference: string;
  business_id: string;
  rrn: string;
  processing_code: string;
  amount: string;
  state: RequestState;
  response_code: string | null;
  reversal_code: string | null;
}

/** What the metrics read of a network's latest run. */
export interface LatestReconciliation {
  network: NetworkName;
  /** Null when the network was never reconciled. */
  differences: number | null;
  /** Since the latest run; never run, since the network's first request (0 without any). */
  ageSeconds: number;
}

/**
 * The network's records a reconciliation reads (card_processor.network_requests) and the runs
 * it writes (card_processor.reconciliations). Reads select no card data: a report never
 * carries a PAN.
 */
@Injectable()
export class ReconciliationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The requests of one settlement date on a network: those the host dated (DE15 of the 0210),
   * and those no 0210 dated (dropped, refused, given up) by the Lagos calendar date they were sent on.
   */
  async requestsOn(network: NetworkName, day: string): Promise<RecordedRequest[]> {
    const { start, end } = lagosDay(day);
    const columns = `id, purpose, payment_reference, business_id, rrn, processing_code, amount::text AS amount,
                     state, response_code, reversal_code, transmitted_at`;
    const rows = (await this.dataSource.query(
      `SELECT ${columns} FROM card_processor.network_requests WHERE network = $1 AND settlement_date = $2::date
       UNION ALL
       SELECT ${columns} FROM card_processor.network_requests
       WHERE network = $1 AND settlement_date IS NULL AND transmitted_at >= $3 AND transmitted_at < $4
       ORDER BY transmitted_at, id`,
      [network, day, start, end],
    )) as RequestRow[];
    return rows.map((row) => ({
      id: row.id,
      purpose: row.purpose,
      paymentReference: row.payment_reference,
      businessId: row.business_id,
      rrn: row.rrn,
      kind: processingCodeParts(row.processing_code).kind,
      amount: BigInt(row.amount),
      state: row.state,
      responseCode: row.response_code,
      reversalCode: row.reversal_code,
    }));
  }

  /** Keeps a run and its report: what the metrics and an operator read afterwards. */
  async record(report: ReconciliationReport): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO card_processor.reconciliations (id, network, settlement_date, ran_at, differences, host_agreed, report)
       VALUES ($1, $2, $3::date, $4, $5, $6, $7::jsonb)`,
      [
        newUlid(),
        report.network,
        report.settlementDate,
        report.ranAt,
        report.differences.length,
        report.host.answered ? report.host.agreed : null,
        JSON.stringify(report),
      ],
    );
  }

  /** Each network's latest run, read on every scrape. */
  async latest(networks: NetworkName[]): Promise<LatestReconciliation[]> {
    const rows = (await this.dataSource.query(
      `SELECT n.network, r.differences,
              extract(epoch FROM now() - coalesce(
                r.ran_at,
                (SELECT min(q.transmitted_at) FROM card_processor.network_requests q WHERE q.network = n.network),
                now())) AS age
       FROM unnest($1::text[]) AS n(network)
       LEFT JOIN LATERAL (
         SELECT differences, ran_at FROM card_processor.reconciliations
         WHERE network = n.network ORDER BY ran_at DESC LIMIT 1
       ) r ON true`,
      [networks],
    )) as { network: NetworkName; differences: number | null; age: string }[];
    return rows.map((row) => ({ network: row.network, differences: row.differences, ageSeconds: Number(row.age) }));
  }
}
