// How compactly the compiled model holds what a large model repeats (issue 28: 10,000 cubes within
// `drydock validate`'s 400 MB).
import { describe, expect, it } from 'vitest';
import { compile, yaml } from './helpers';

const CUBE = yaml`
  cubes:
    - name: orders
      sql_table: shop.orders
      dimensions:
        - name: id
          sql: id
          type: number
          primary_key: true
        - name: created_at
          sql: created_at
          type: time
        - name: placed_at
          sql: placed_at
          type: time
          granularities:
            - name: fiscal_year
              interval: 1 year
              origin: "2024-04-01"
      measures:
        - name: count
          type: count
        - name: total
          sql: amount
          type: sum
        - name: paid
          sql: amount
          type: sum
          filters:
            - sql: "{CUBE}.paid"
          drill_members: [id]
`;

describe('lists a member leaves empty', () => {
  const result = compile({ 'model/orders.yml': CUBE });
  const cube = result.model.cubes.orders!;
  const dim = (name: string) => cube.dimensions[name]!;
  const measure = (name: string) => cube.measures[name]!;

  it('compile without a diagnostic', () => expect(result.diagnostics).toEqual([]));

  it('are one shared, frozen list rather than an array per member', () => {
    expect(dim('id').granularities).toBe(dim('created_at').granularities);
    expect(measure('count').filters).toBe(measure('total').filters);
    expect(measure('count').drillMembers).toBe(measure('total').filters);
    expect(Object.isFrozen(measure('count').filters)).toBe(true);
  });

  it('stay the member\'s own when they hold something', () => {
    expect(dim('placed_at').granularities.map((g) => g.name)).toEqual(['fiscal_year']);
    expect(measure('paid').filters.map((f) => f.sql)).toEqual(['{CUBE}.paid']);
    expect(measure('paid').drillMembers).toEqual(['id']);
    expect(Object.isFrozen(measure('paid').filters)).toBe(false);
  });
});
