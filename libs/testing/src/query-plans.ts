import { DataSource } from 'typeorm';

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
