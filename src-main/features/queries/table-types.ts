/** DuckDB column types (as DuckDB infers them from a file) in the vocabulary of the emulated vendor. */

const decimal = (t: string) => /^DECIMAL\((\d+),\s*(\d+)\)$/i.exec(t);

/** Snowflake's spelling: integers are NUMBER(38,0), floats FLOAT, text VARCHAR, naive timestamps TIMESTAMP_NTZ. */
export function warehouseType(duckType: string): string {
  const t = duckType.trim().toUpperCase();
  const d = decimal(t);
  if (d) return `NUMBER(${Math.min(38, Number(d[1]))},${d[2]})`;
  if (/^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?)$/.test(t)) return 'NUMBER(38,0)';
  if (t === 'DOUBLE' || t === 'FLOAT' || t === 'REAL') return 'FLOAT';
  if (t === 'BOOLEAN') return 'BOOLEAN';
  if (t === 'DATE') return 'DATE';
  if (t === 'TIME') return 'TIME';
  if (t === 'TIMESTAMP WITH TIME ZONE') return 'TIMESTAMP_TZ';
  if (t.startsWith('TIMESTAMP')) return 'TIMESTAMP_NTZ';
  return 'VARCHAR';
}

/** Databricks' spelling: BIGINT, INT, DOUBLE, DECIMAL(p,s), STRING, TIMESTAMP_NTZ, … */
export function lakehouseType(duckType: string): string {
  const t = duckType.trim().toUpperCase();
  const d = decimal(t);
  if (d) return `DECIMAL(${Math.min(38, Number(d[1]))},${d[2]})`;
  if (t === 'BIGINT' || t === 'HUGEINT' || t === 'UBIGINT' || t === 'UINTEGER') return 'BIGINT';
  if (t === 'INTEGER' || t === 'USMALLINT') return 'INT';
  if (t === 'SMALLINT' || t === 'UTINYINT') return 'SMALLINT';
  if (t === 'TINYINT') return 'TINYINT';
  if (t === 'DOUBLE') return 'DOUBLE';
  if (t === 'FLOAT' || t === 'REAL') return 'FLOAT';
  if (t === 'BOOLEAN') return 'BOOLEAN';
  if (t === 'DATE') return 'DATE';
  if (t === 'TIMESTAMP WITH TIME ZONE') return 'TIMESTAMP';
  if (t.startsWith('TIMESTAMP')) return 'TIMESTAMP_NTZ';
  return 'STRING';
}
