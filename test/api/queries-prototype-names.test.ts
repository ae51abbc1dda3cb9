// The data API with names of JavaScript's own (issue 23), against a real service and the local
// warehouse's DuckDB data: `measures: ["__proto__.count"]` or `["constructor.name"]` used to be a
// 500 (a TypeError in the member resolver), a cube named `constructor` showed in meta but failed
// to query, and absurd date ranges failed on the warehouse (502). Each such name is a cube, view or
// member like any other; a name the model does not define is 400 UNKNOWN_MEMBER; an absurd date
// range is 400 INVALID_DATE_RANGE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { PROTOTYPE_NAMES, prototypeNamedCubesJs, prototypeNamedCubesYaml, prototypeNamedViewsYaml } from '../support/prototype-names';
import { startSampleProjectService, type SampleProjectService } from '../support/sample-project';

let svc: SampleProjectService;
let deploymentId: number;

beforeAll(async () => {
  svc = await startSampleProjectService({
    'model/cubes/named.yml': prototypeNamedCubesYaml('ecommerce.orders'),
    'model/cubes/named.js': prototypeNamedCubesJs('ecommerce.orders'),
    'model/views/named.yml': prototypeNamedViewsYaml(),
  });
  svc.ctx.services.sampleData = { orders: 500 };
  deploymentId = await createDeployment(svc);
});
afterAll(async () => svc?.stop());

const api = (path: string) => `/deployments/${deploymentId}/cubejs-api/v1/${path}`;
const load = (query: unknown) => svc.call('GET', api(`load?query=${encodeURIComponent(JSON.stringify(query))}`));

/** Rows of hand-written SQL over the local warehouse's tables. */
async function warehouseSql(sql: string): Promise<unknown[][]> {
  const { emulatorData } = await import('../../src-main/features/queries/engines');
  const engine = await emulatorData(svc.ctx, 'warehouse').engine();
  return (await engine.query(sql)).rows;
}

describe('cubes, views and members named like JavaScript’s own properties', () => {
  it('answer load with the warehouse’s numbers, for each name, in YAML and JS cubes and in views', async () => {
    const byStatus = new Map((await warehouseSql('SELECT status, COUNT(*) FROM ecommerce.orders GROUP BY status')).map(([status, n]) => [status, Number(n)]));
    for (const name of PROTOTYPE_NAMES) {
      for (const entity of [name, `js_${name}`, `v_${name}`]) {
        const res = await load({ measures: [`${entity}.count`], dimensions: [`${entity}.${name}`] });
        expect(res.status, `${entity}: ${res.text}`).toBe(200);
        const rows = res.body.data as Record<string, unknown>[];
        expect(new Map(rows.map((r) => [r[`${entity}.${name}`], Number(r[`${entity}.count`])])), entity).toEqual(byStatus);
      }
    }
  });

  it('are listed by meta with their members', async () => {
    const res = await svc.call('GET', api('meta'));
    expect(res.status).toBe(200);
    const cubes = res.body.cubes as { name: string; measures: { name: string }[]; dimensions: { name: string }[] }[];
    for (const name of PROTOTYPE_NAMES) {
      for (const entity of [name, `js_${name}`, `v_${name}`]) {
        const cube = cubes.find((c) => c.name === entity);
        expect(cube, entity).toBeDefined();
        expect(cube!.dimensions.map((d) => d.name)).toContain(`${entity}.${name}`);
        expect(cube!.measures.map((m) => m.name)).toContain(`${entity}.count`);
      }
    }
  });

  it('that the model does not define are 400 UNKNOWN_MEMBER, never a 500', async () => {
    for (const measure of ['__proto__.nope', 'constructor.name', 'toString.length', 'orders.__proto__', 'nothing.constructor', 'v_valueOf.__proto__', 'hasOwnProperty.hasOwnProperty.x']) {
      const res = await load({ measures: [measure] });
      expect(res.status, `${measure}: ${res.text}`).toBe(400);
      expect(res.body, measure).toMatchObject({ code: 'INVALID_QUERY', reason: 'UNKNOWN_MEMBER' });
    }
  });
});

describe('absurd date ranges', () => {
  it.each([
    ['last 99999999999 years'],
    ['from 99999999999999999999 days ago to now'],
    [['275760-01-01', '275760-12-31']],
    [['2025-01-01', '99999-12-31']],
    ['NaN'],
  ])('%j is 400 INVALID_DATE_RANGE', async (dateRange) => {
    const res = await load({ measures: ['constructor.count'], timeDimensions: [{ dimension: 'constructor.created_at', dateRange }] });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_QUERY', reason: 'INVALID_DATE_RANGE' });
  });
});
