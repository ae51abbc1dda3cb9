import { compileModel } from '../../../src-shared/model';
import type { CompileOptions, CompileResult, Diagnostic, ModelFile } from '../../../src-shared/model';

/** Strip the common indentation of a template literal so YAML fixtures can be indented with the test code. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = text.replace(/^\n/, '').replace(/\n\s*$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length));
  return `${lines.map((l) => l.slice(indent)).join('\n')}\n`;
}

export function files(map: Record<string, string>): ModelFile[] {
  return Object.entries(map).map(([path, content]) => ({ path, content }));
}

export function compile(map: Record<string, string>, options?: CompileOptions): CompileResult {
  return compileModel(files(map), options);
}

export function withCode(result: CompileResult, code: string): Diagnostic[] {
  return result.diagnostics.filter((d) => d.code === code);
}

export function errors(result: CompileResult): Diagnostic[] {
  return result.diagnostics.filter((d) => d.severity === 'error');
}

/** A small valid project the rule tests start from: orders → customers, and a view over both. */
export const ORDERS = yaml`
  cubes:
    - name: orders
      sql_table: shop.orders
      joins:
        - name: customers
          sql: "{CUBE}.customer_id = {customers.id}"
          relationship: many_to_one
      dimensions:
        - name: id
          sql: id
          type: number
          primary_key: true
        - name: status
          sql: status
          type: string
        - name: created_at
          sql: created_at
          type: time
      measures:
        - name: count
          type: count
        - name: total
          sql: amount
          type: sum
`;

export const CUSTOMERS = yaml`
  cubes:
    - name: customers
      sql_table: shop.customers
      dimensions:
        - name: id
          sql: id
          type: number
          primary_key: true
        - name: city
          sql: city
          type: string
      measures:
        - name: count
          type: count
`;

export const VIEW = yaml`
  views:
    - name: overview
      cubes:
        - join_path: orders
          includes:
            - status
            - total
        - join_path: orders.customers
          prefix: true
          includes:
            - city
`;

export function base(extra: Record<string, string> = {}): Record<string, string> {
  return { 'model/cubes/orders.yml': ORDERS, 'model/cubes/customers.yml': CUSTOMERS, 'model/views/overview.yml': VIEW, ...extra };
}
