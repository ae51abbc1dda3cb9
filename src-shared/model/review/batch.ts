// The statements a data diff runs (issue 26). Scanning the rows is cheap next to aggregating them
// (a COUNT DISTINCT over a million orders costs fifty scans of them): so the sides of every query
// — both commits of every widget, report and view query — that read the same rows (same FROM, same
// WHERE) grouped by the same expressions are computed in ONE statement, each distinct measure
// expression once (the base version of a changed measure beside the head's, a measure two queries
// share once), and each side's rows are picked out of it by its own order and limit (a row_number
// per distinct order). The joins are made once too. A side whose plan is not one flat GROUP BY, or
// that is alone in its group, runs its own statement. DuckDB only: the warehouses' own dialects run
// each side as planned.

import type { DialectName, FlatStatement, OrderDirection, PlannedSql } from '../query';

/** What batching needs of one side (a successfully planned `PlannedSide`). */
export interface BatchSide {
  runKey: string;
  sql: string;
  params: unknown[];
  dataSource: string;
  dialect: DialectName;
  flat: FlatStatement | null;
}

export interface StatementRun {
  dataSource: string;
  sql: string;
  params: unknown[];
  /** The sides (run keys) it answers. */
  sides: string[];
  /** It computes several sides at once: when it fails, each side runs alone to say which one fails. */
  combined: boolean;
}

/** Where one side's rows are in a run's rows. */
export interface SidePick {
  run: number;
  /** Columns of the side, in order, as positions in the run's rows. */
  columns: number[];
  /** The side's rows are those whose rank (a column) is in [from, to], in rank order; null: every row. */
  rank: { column: number; from: number; to: number } | null;
}

export interface StatementBatch {
  runs: StatementRun[];
  /** By run key. */
  picks: Record<string, SidePick>;
}

const keyOf = (part: PlannedSql | null) => (part ? JSON.stringify([part.sql, part.params]) : 'null');
const quote = (name: string) => `"${name}"`;

function alone(side: BatchSide, index: number): { run: StatementRun; pick: SidePick } {
  const columns = side.flat ? side.flat.dimensions.length + side.flat.measures.length : 0;
  return {
    run: { dataSource: side.dataSource, sql: side.sql, params: side.params, sides: [side.runKey], combined: false },
    // A side without flat parts is read whole: its columns are its own (the caller knows how many).
    pick: { run: index, columns: side.flat ? Array.from({ length: columns }, (_, i) => i) : [], rank: null },
  };
}

/** One statement for the sides of a group (they share data source, FROM, WHERE and dimensions). */
function combine(group: (BatchSide & { flat: FlatStatement })[], index: number): { run: StatementRun; picks: [string, SidePick][] } {
  const first = group[0]!.flat;
  const dims = first.dimensions.length;
  const measures: PlannedSql[] = [];
  const measureIndex = new Map<string, number>();
  const columnOf = (flat: FlatStatement) => {
    const byAlias = new Map<string, string>();
    flat.dimensions.forEach((d, i) => byAlias.set(d.alias, `d${i}`));
    const positions: number[] = flat.dimensions.map((_, i) => i);
    for (const m of flat.measures) {
      const key = keyOf(m.sql);
      let at = measureIndex.get(key);
      if (at === undefined) {
        at = measures.length;
        measures.push(m.sql);
        measureIndex.set(key, at);
      }
      byAlias.set(m.alias, `m${at}`);
      positions.push(-1 - at);
    }
    return { byAlias, positions };
  };
  const ranks: string[] = [];
  const rankIndex = new Map<string, number>();
  const sides = group.map((side) => {
    const { byAlias, positions } = columnOf(side.flat);
    const order = side.flat.order.map((o: { alias: string; direction: OrderDirection }) => `${quote(byAlias.get(o.alias)!)} ${o.direction.toUpperCase()}`).join(', ');
    let rank = rankIndex.get(order);
    if (rank === undefined) {
      rank = ranks.length;
      ranks.push(order);
      rankIndex.set(order, rank);
    }
    return { side, positions, rank };
  });
  // Columns of the run: d0…, m0…, r0…
  const position = (p: number) => (p >= 0 ? p : dims - 1 - p);
  const select = [
    ...first.dimensions.map((d, i) => `${d.sql.sql} AS ${quote(`d${i}`)}`),
    ...measures.map((m, i) => `${m.sql} AS ${quote(`m${i}`)}`),
  ];
  const params = [...first.dimensions.flatMap((d) => d.sql.params), ...measures.flatMap((m) => m.params), ...first.from.params, ...(first.where?.params ?? [])];
  const grouped = `SELECT ${select.join(', ')} FROM ${first.from.sql}${first.where ? ` WHERE ${first.where.sql}` : ''}${dims ? ` GROUP BY ${Array.from({ length: dims }, (_, i) => i + 1).join(', ')}` : ''}`;
  const windows = ranks.map((order, i) => `row_number() OVER (${order ? `ORDER BY ${order}` : ''}) AS ${quote(`r${i}`)}`);
  const bounds = sides.map(({ side, rank }) => `${quote(`r${rank}`)} BETWEEN ${side.flat.offset + 1} AND ${side.flat.offset + side.flat.limit}`);
  const sql = `SELECT *, ${windows.join(', ')} FROM (${grouped}) AS ${quote('g')} QUALIFY ${[...new Set(bounds)].join(' OR ')}`;
  const rankColumn = (rank: number) => dims + measures.length + rank;
  return {
    run: { dataSource: group[0]!.dataSource, sql, params, sides: group.map((s) => s.runKey), combined: true },
    picks: sides.map(({ side, positions, rank }) => [
      side.runKey,
      { run: index, columns: positions.map(position), rank: { column: rankColumn(rank), from: side.flat.offset + 1, to: side.flat.offset + side.flat.limit } },
    ]),
  };
}

/** The statements to run for these sides (equal run keys once), and where each side's rows are. */
export function batchStatements(sides: BatchSide[]): StatementBatch {
  const distinct = [...new Map(sides.map((s) => [s.runKey, s])).values()];
  const groups = new Map<string, BatchSide[]>();
  const singles: BatchSide[] = [];
  for (const side of distinct) {
    const flat = side.flat;
    if (!flat || side.dialect !== 'duckdb') {
      singles.push(side);
      continue;
    }
    const key = JSON.stringify([side.dataSource, keyOf(flat.from), keyOf(flat.where), flat.dimensions.map((d) => keyOf(d.sql))]);
    const group = groups.get(key);
    if (group) group.push(side);
    else groups.set(key, [side]);
  }
  const runs: StatementRun[] = [];
  const picks: Record<string, SidePick> = {};
  for (const group of groups.values()) {
    if (group.length === 1) {
      singles.push(group[0]!);
      continue;
    }
    const { run, picks: sidePicks } = combine(group as (BatchSide & { flat: FlatStatement })[], runs.length);
    runs.push(run);
    for (const [key, pick] of sidePicks) picks[key] = pick;
  }
  for (const side of singles) {
    const { run, pick } = alone(side, runs.length);
    runs.push(run);
    picks[side.runKey] = pick;
  }
  return { runs, picks };
}

/** A side's rows out of its run's rows. */
export function pickRows(rows: unknown[][], pick: SidePick): unknown[][] {
  if (!pick.rank) return pick.columns.length ? rows.map((row) => pick.columns.map((c) => row[c])) : rows;
  const { column, from, to } = pick.rank;
  const ranked: [number, unknown[]][] = [];
  for (const row of rows) {
    const rank = Number(row[column]);
    if (rank >= from && rank <= to) ranked.push([rank, row]);
  }
  ranked.sort((a, b) => a[0] - b[0]);
  return ranked.map(([, row]) => pick.columns.map((c) => row[c]));
}
