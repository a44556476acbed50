import { AppDatabase, migrate, postgresOptions } from '@payments/platform-database';
import { DataSource } from 'typeorm';

import { queryTestDatabase, testEnvironment, uniqueName } from './test-env';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** One statement run under EXPLAIN ANALYZE: what it did, node by node. */
export async function explainAnalyze(dataSource: DataSource, statement: string, params: unknown[]): Promise<PlanNode> {
  const [
    {
      'QUERY PLAN': [explained],
    },
  ] = (await dataSource.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`, params)) as [
    { 'QUERY PLAN': [{ Plan: PlanNode }] },
  ];
  return explained.Plan;
}

/** Rows of `table` a plan's scans read: returned or filtered out, in every loop of each. */
export function rowsRead(node: PlanNode, table: string): number {
  const scanned = node['Relation Name'] === table && node['Node Type'].endsWith('Scan');
  const own = scanned ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, table), 0);
}

/**
 * A migrated database of one app's schema for one suite, beside the shared test database: the
 * statistics a plan test takes, and the rows its statements touch, reach no other suite.
 */
export async function privateDatabase(
  database: AppDatabase,
): Promise<{ dataSource: DataSource; drop: () => Promise<void> }> {
  const name = uniqueName('payments_plans');
  const url = Object.assign(new URL(testEnvironment().DATABASE_URL ?? ''), { pathname: `/${name}` }).toString();
  await migrate(postgresOptions(url, 2, database));
  const dataSource = await new DataSource(postgresOptions(url, 2, database)).initialize();
  return {
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await queryTestDatabase(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
