// Where Drydock's compiler knowingly differs from the platform's, and why. The differential suite
// fails on any disagreement not listed here, and checks every entry here against its example, so
// an entry that no longer reproduces (the difference was fixed) fails too and must be removed.
import type { ModelFile } from '../../src-shared/model/types';
import type { Disagreement, Outcome } from './differential';

export interface KnownDifference {
  id: string;
  /** Why Drydock differs (a platform defect not worth copying, or a rule Drydock cannot run). */
  reason: string;
  /** Whether a disagreement is this one. */
  matches(d: Disagreement, o: Outcome): boolean;
  /** A model that shows the difference. */
  example: ModelFile[];
}

const platformSays = (o: Outcome, pattern: RegExp): boolean => o.platform.messages.some((m) => pattern.test(m));

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    id: 'platform-view-hierarchy-name-clash',
    reason:
      'When two cubes define a hierarchy of the same name and a view includes "*" from one of them, the platform reports ' +
      "\"Hierarchy '<name>' not found in cube '<other>'\" although the hierarchy exists: it looks the hierarchy up in the wrong cube. " +
      'Drydock compiles the view (its hierarchy is the one of the cube the view includes).',
    matches: (d, o) => d.kind === 'verdict' && !o.platform.valid && o.drydock.valid && platformSays(o, /^Hierarchy '[^']+' not found in cube '[^']+'$/),
    example: [
      {
        path: 'model/model.yml',
        content: `cubes:
  - name: orders
    sql_table: public.orders
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
    hierarchies:
      - name: place
        levels: [CUBE.status]
  - name: customers
    sql_table: public.customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: city
        sql: city
        type: string
    hierarchies:
      - name: place
        levels: [CUBE.city]
views:
  - name: sales
    cubes:
      - join_path: orders
        includes: "*"
        prefix: true
      - join_path: orders.customers
        includes: [id]
        prefix: true
`,
      },
    ],
  },
  {
    id: 'platform-same-join-path-twice-unprefixed',
    reason:
      'When a view lists the same join path twice, once with includes "*" and prefix: true, and the cube has a hierarchy, the platform ' +
      'also exposes the hierarchy levels without the prefix (city next to orders_city), which neither entry asks for. Drydock exposes what each entry says.',
    matches: platformAlsoPrefixed,
    example: [
      {
        path: 'model/model.js',
        content:
          'cube("orders", {\n  sqlTable: "public.orders",\n  dimensions: {\n    id: { sql: `id`, type: "number", primaryKey: true },\n    city: { sql: `city`, type: "string" }\n  },\n' +
          '  hierarchies: { place: { levels: [CUBE.city] } }\n});\n' +
          'view("sales", { cubes: [{ joinPath: orders, includes: "*", prefix: true }, { joinPath: orders, includes: ["id"] }] });\n',
      },
    ],
  },
];

/** `view.section.member` of a shape line such as `sales.members.city: platform "orders.city" ≠ drydock absent`. */
const shapeLine = /^([\w]+)\.(dimensions|measures|members)\.(\w+): platform .+ ≠ drydock absent$/;

function platformAlsoPrefixed(d: Disagreement, o: Outcome): boolean {
  const match = shapeLine.exec(d.detail);
  if (d.kind !== 'shape' || !match) return false;
  const members = o.platform.shape?.[match[1]!]?.members ?? {};
  const source = members[match[3]!];
  return source !== undefined && Object.entries(members).some(([name, s]) => name !== match[3] && name.endsWith(`_${match[3]}`) && s === source);
}

export function explain(d: Disagreement, o: Outcome): KnownDifference | undefined {
  return KNOWN_DIFFERENCES.find((k) => k.matches(d, o));
}
