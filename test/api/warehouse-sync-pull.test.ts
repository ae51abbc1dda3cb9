import { describe, expect, it } from 'vitest';
import { compileModel } from '../../src-shared/model';
import { readModelFiles } from '../../src-main/features/data-model';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { createDeployment } from '../support/deployments';
import { D, pull, push, setup, svc, useWarehouseSyncService } from '../support/warehouse-sync';

// Warehouse semantic view pull: from the warehouse into model files on a branch.
useWarehouseSyncService();

describe('pull', () => {
  it('answers 202, commits one file per semantic view under outputPath to the branch, and lists the generated files in the result', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view', 'totals_view'] });
    const { start, progress, result } = await pull(id, { schema, outputPath: 'model/pulled' });
    expect(start.body).toMatchObject({ syncJobId: expect.any(String), workflowId: expect.any(String) });
    expect(progress.body).toMatchObject({ direction: 'pull', status: 'COMPLETED', progress: { percentComplete: 100 } });
    expect(result.body).toMatchObject({ viewCount: 2, branchName: 'main', commit: expect.any(String), schema });
    expect(result.body.generatedFiles.map((f: { path: string }) => f.path)).toEqual(['model/pulled/sv_orders_view.yml', 'model/pulled/sv_totals_view.yml']);
    expect(result.body.generatedFiles[0]).toMatchObject({ semanticViewName: 'SV_ORDERS_VIEW', viewName: 'sv_orders_view', status: 'added' });
    const files = await readModelFiles(svc.ctx, id, 'main');
    const pulled = files.filter((f) => f.path.startsWith('model/pulled/'));
    expect(pulled.map((f) => f.path)).toEqual(['model/pulled/sv_orders_view.yml', 'model/pulled/sv_totals_view.yml']);
    // The branch still compiles: pulled cubes stay clear of the names the model already uses.
    expect(compileModel(files).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('pulling what was pushed and pushing it again gives the warehouse the same semantic view (round trip)', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: 'RT_', viewNames: ['orders_view'] });
    const session = getLocalWarehouse(svc.ctx).openSession();
    const describe = () => session.execute(`DESCRIBE SEMANTIC VIEW ANALYTICS.${schema}.RT_ORDERS_VIEW`).rows.map((r) => JSON.stringify(r)).sort();
    const before = describe();
    // Pulled into a deployment of its own: in the original repository the pulled cubes would be renamed clear of the originals.
    const fresh = await createDeployment(svc);
    const { result } = await pull(fresh, { schema, viewNames: ['RT_ORDERS_VIEW'], outputPath: 'model/round_trip' });
    const pulledView = result.body.generatedFiles[0].viewName;
    const again = await push(fresh, { schema, prefix: '', viewNames: [pulledView] });
    expect(again.progress.body.status).toBe('COMPLETED');
    const repushed = session.execute(`DESCRIBE SEMANTIC VIEW ANALYTICS.${schema}.${pulledView.toUpperCase()}`).rows.map((r) => JSON.stringify(r)).sort();
    expect(repushed).toEqual(before);
  });

  it('selects views with * patterns (case-insensitively), and all views when viewNames is omitted', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: 'A_', viewNames: ['totals_view'] });
    await push(id, { schema, prefix: 'B_', viewNames: ['totals_view'] });
    const some = await pull(id, { schema, viewNames: ['a_*'], outputPath: 'model/some' });
    expect(some.result.body.generatedFiles.map((f: { semanticViewName: string }) => f.semanticViewName)).toEqual(['A_TOTALS_VIEW']);
    const all = await pull(id, { schema, outputPath: 'model/all' });
    expect(all.result.body.generatedFiles.map((f: { semanticViewName: string }) => f.semanticViewName)).toEqual(['A_TOTALS_VIEW', 'B_TOTALS_VIEW']);
  });

  it('fails with SEMANTIC_VIEW_NOT_FOUND when a named view does not exist', async () => {
    const { id, schema } = await setup();
    const { progress } = await pull(id, { schema, viewNames: ['MISSING_VIEW'], outputPath: 'model/x' });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({ code: 'SEMANTIC_VIEW_NOT_FOUND', details: { missing: ['MISSING_VIEW'] } });
  });

  it('commits to the given branchName and leaves the deploy branch alone', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    expect((await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'pulls' } })).status).toBeLessThan(300);
    const { result } = await pull(id, { schema, outputPath: 'model/pulled', branchName: 'pulls' });
    expect(result.body.branchName).toBe('pulls');
    // The branch already defines a view `totals_view`, so the pulled one is named clear of it.
    expect(result.body.generatedFiles[0]).toMatchObject({ path: 'model/pulled/totals_view_2.yml', viewName: 'totals_view_2' });
    expect((await readModelFiles(svc.ctx, id, 'pulls')).some((f) => f.path === 'model/pulled/totals_view_2.yml')).toBe(true);
    expect((await readModelFiles(svc.ctx, id, 'main')).some((f) => f.path.startsWith('model/pulled/'))).toBe(false);
  });

  it('commits nothing when the generated files are unchanged', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    await pull(id, { schema, outputPath: 'model/pulled' });
    const { result } = await pull(id, { schema, outputPath: 'model/pulled' });
    expect(result.body.commit).toBeNull();
    expect(result.body.generatedFiles[0].status).toBe('unchanged');
  });

  it('refuses an absolute outputPath, one with `..`, and one outside the model folders with 400', async () => {
    const { id, schema } = await setup();
    for (const outputPath of ['/etc/model', 'model/../../escape', 'pulled']) {
      const res = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body: { schema, outputPath } });
      expect(res.status, outputPath).toBe(400);
      expect(res.body.errors[0].pointer).toBe('/body/outputPath');
    }
  });

  it('refuses a data source that is not a warehouse with 422', async () => {
    const { id, schema } = await setup();
    const res = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body: { schema, outputPath: 'model/x', dataSourceName: 'lake' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('DATA_SOURCE_NOT_WAREHOUSE');
  });
});
