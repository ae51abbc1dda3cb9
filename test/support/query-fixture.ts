import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileModel, type CompiledModel, type ModelFile } from '../../src-shared/model';
import { duckdbDialect, planQuery, type QuerySecurity } from '../../src-shared/model/query';
import { DuckDbEngine } from '../../src-main/connectors/duckdb/engine';
import { generateSampleData } from '../../src-main/connectors/duckdb/sample-data';

/** The shipped sample project's model files. */
export function sampleModelFiles(): ModelFile[] {
  const root = new URL('../../resources/sample-project/', import.meta.url).pathname;
  const files: ModelFile[] = [];
  for (const dir of ['model/cubes', 'model/views']) {
    for (const f of readdirSync(join(root, dir)).sort()) files.push({ path: `${dir}/${f}`, content: readFileSync(join(root, dir, f), 'utf8') });
  }
  return files;
}

export function sampleModel(): CompiledModel {
  const result = compileModel(sampleModelFiles());
  if (!result.valid) throw new Error(`sample model does not compile: ${JSON.stringify(result.diagnostics.filter((d) => d.severity === 'error'))}`);
  return result.model;
}

export interface QueryFixture {
  engine: DuckDbEngine;
  model: CompiledModel;
  /** Rows of a model query, keyed by result key (`orders.count`). */
  load(query: unknown, security?: QuerySecurity | null): Promise<Record<string, unknown>[]>;
  /** Rows of hand-written SQL, keyed by column name. */
  sql(text: string): Promise<Record<string, unknown>[]>;
  close(): void;
}

/** A DuckDB file with the sample tables (a small number of orders by default) and the sample model. */
export async function openQueryFixture(options: { orders?: number; model?: CompiledModel; catalog?: string } = {}): Promise<QueryFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'dd-query-'));
  const engine = await DuckDbEngine.open(join(dir, 'warehouse.duckdb'), options.catalog ?? 'ANALYTICS');
  await engine.write((c) => generateSampleData(c, 'ecommerce', { orders: options.orders ?? 3000 }));
  const model = options.model ?? sampleModel();
  const objects = (columns: string[], rows: unknown[][]) => rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
  return {
    engine,
    model,
    async load(query, security = null) {
      const plan = planQuery(model, query, { dialect: duckdbDialect, security, now: new Date('2025-07-15T12:00:00Z') });
      const result = await engine.query(plan.main.sql, { params: plan.main.params });
      return result.rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (const c of plan.columns) {
          const idx = result.columns.findIndex((rc) => rc.name === c.alias);
          out[c.key] = row[idx];
          if (c.alsoKey) out[c.alsoKey] = row[idx];
        }
        return out;
      });
    },
    async sql(text) {
      const result = await engine.query(text);
      return objects(
        result.columns.map((c) => c.name),
        result.rows,
      );
    },
    close() {
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Numbers compared to the cent: DuckDB returns decimals as text. */
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100);

/** Rows as `key → [values]` after sorting by the key columns, for order-independent comparison. */
export function byKey(rows: Record<string, unknown>[], keys: string[], values: string[]): Map<string, (number | string | null)[]> {
  const out = new Map<string, (number | string | null)[]>();
  for (const r of rows) out.set(keys.map((k) => String(r[k])).join('|'), values.map((v) => (typeof r[v] === 'string' && isNaN(Number(r[v])) ? (r[v] as string) : num(r[v]))));
  return out;
}
