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
    // Also when the model has another fault: the platform's first error is then this one, naming the other cube.
    matches: (d, o) => !o.platform.valid && (o.drydock.valid ? d.kind === 'verdict' : d.kind === 'entity') && platformSays(o, /^Hierarchy '[^']+' not found in cube '[^']+'$/),
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
    id: 'platform-yaml-string-f-crashes',
    reason:
      'The platform\'s YAML loader reads some plain strings as Python expressions: the string "F" (even quoted, as a folder name) is taken for ' +
      'the start of an f-string, the parser crashes ("Failed to parse Python expression … Cannot read properties of undefined") and the value becomes null. ' +
      'Drydock reads the string as YAML defines it.',
    matches: (d, o) => d.kind === 'verdict' && !o.platform.valid && o.drydock.valid && platformSays(o, /^Failed to parse Python expression/),
    example: [
      {
        path: 'model/model.yml',
        content: `cubes:
  - name: orders
    sql_table: public.orders
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
views:
  - name: sales
    cubes:
      - join_path: orders
        includes: [id]
    folders:
      - name: "F"
        includes: [id]
`,
      },
    ],
  },
];

export function explain(d: Disagreement, o: Outcome): KnownDifference | undefined {
  return KNOWN_DIFFERENCES.find((k) => k.matches(d, o));
}
