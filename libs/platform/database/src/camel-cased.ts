/** `business_id` → `businessId`, at the type level. */
type CamelCase<Column extends string> = Column extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Column;

/** A row's type with its snake_case column names in camelCase. */
export type CamelCased<Row> = {
  [Column in keyof Row as Column extends string ? CamelCase<Column> : Column]: Row[Column];
};

// Keyed by column names of the code's own statements: as many entries as the schema has columns.
const camelNames = new Map<string, string>();

function camelName(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

/**
 * The row under the names the code uses, values as the driver read them: the one rename from
 * SQL's snake_case to TypeScript's camelCase, typed, instead of a mapper per table. Select the
 * columns you mean; every column selected comes through.
 */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  const renamed: Record<string, unknown> = {};
  for (const column of Object.keys(row)) renamed[camelName(column)] = row[column as keyof Row];
  return renamed as CamelCased<Row>;
}
