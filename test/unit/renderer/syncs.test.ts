import { describe, expect, it } from 'vitest';
import type { LakehouseConfiguration, RunSummary } from '../../../src-shared/api/lakehouse';
import type { SyncJob } from '../../../src-shared/api/warehouse-sync';
import { compileModel } from '../../../src-shared/model';
import { durationText, elapsedMs } from '../../../src-renderer/src/features/syncs/format';
import {
  changedFields,
  configurationOf,
  conflictChanges,
  formErrors,
  formOf,
  newOverrideRow,
  patternMatches,
  previewInputOf,
  type SettingsForm,
} from '../../../src-renderer/src/features/syncs/lakehouse/form';
import { axisTicks, chartBars, niceMax, outcomesPresent, runAnnouncement } from '../../../src-renderer/src/features/syncs/lakehouse/outcomes';
import { lakehousePath, warehouseJobPath } from '../../../src-renderer/src/features/syncs/paths';
import { viewsOf } from '../../../src-renderer/src/features/syncs/views';
import {
  ddlOf,
  endAnnouncement,
  outputPathProblem,
  parseViewPatterns,
  requestOf,
  scopeText,
  stageLabel,
  stageSteps,
  statusesOf,
} from '../../../src-renderer/src/features/syncs/warehouse/format';

const saved: LakehouseConfiguration = {
  enabled: true,
  selectionMode: 'selected',
  deletionPolicy: 'retain',
  targetCatalog: 'main',
  targetSchema: 'semantic',
  targetNamePrefix: null,
  namePattern: null,
  selectedViews: ['orders_overview'],
  targetNameOverrides: { orders_overview: 'orders_mv' },
  rootSourceOverrides: {},
};

const job = (over: Partial<SyncJob>): SyncJob => ({
  syncJobId: 'a1b2c3d4-0000-0000-0000-000000000000',
  workflowId: 'wf',
  direction: 'push',
  status: 'COMPLETED',
  progress: { stage: 'completed', percentComplete: 100 },
  request: { schema: 'PUBLIC', prefix: 'SV_', viewNames: ['orders', 'sales', 'returns'] },
  branchName: 'main',
  dataSourceName: null,
  createdBy: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:01.000Z',
  finishedAt: '2026-01-01T00:00:03.500Z',
  attempts: 1,
  ...over,
});

const run = (runId: string, createdAt: string, outcomeCounts: Record<string, number>, status: RunSummary['status'] = 'COMPLETED'): RunSummary => ({
  runId,
  dataSourceName: 'lake',
  buildJobId: null,
  statusUrl: '',
  branchName: 'main',
  devTarget: null,
  configurationVersion: 1,
  status,
  progress: { stage: 'done', percentComplete: 100 },
  incompleteViewCount: 0,
  outcomeCounts,
  error: null,
  createdBy: 1,
  createdAt,
  startedAt: createdAt,
  finishedAt: createdAt,
  viewCount: Object.values(outcomeCounts).reduce((a, b) => a + b, 0),
});

describe('lakehouse settings form', () => {
  it('round-trips saved settings: the form of a configuration saves the same configuration', () => {
    expect(configurationOf(formOf(saved, { catalog: null }))).toEqual(saved);
  });

  it('starts a new form with the data source catalog and nothing saved', () => {
    const form = formOf(null, { catalog: 'lake_catalog' });
    expect(form.targetCatalog).toBe('lake_catalog');
    expect(form.targetSchema).toBe('');
    expect(changedFields(null, form)).toHaveLength(1);
  });

  it('turns empty text into null and override rows into the two override maps', () => {
    const form: SettingsForm = {
      ...formOf(saved, { catalog: null }),
      targetNamePrefix: '  ',
      overrides: [
        { ...newOverrideRow('a'), targetName: 'a_mv', rootSource: '' },
        { ...newOverrideRow('b'), targetName: '', rootSource: 'cat.sch.tbl' },
        newOverrideRow(''),
      ],
    };
    const config = configurationOf(form);
    expect(config.targetNamePrefix).toBeNull();
    expect(config.targetNameOverrides).toEqual({ a: 'a_mv' });
    expect(config.rootSourceOverrides).toEqual({ b: 'cat.sch.tbl' });
  });

  it('flags a pattern the service grammar refuses, an empty selection, a missing target and bad override rows', () => {
    const base = formOf(saved, { catalog: null });
    expect(formErrors(base)).toEqual({});
    expect(formErrors({ ...base, selectionMode: 'pattern', namePattern: 'a.*b.*' }).namePattern).toMatch(/at most one "\.\*"/);
    expect(formErrors({ ...base, selectionMode: 'pattern', namePattern: '^sales_.*' }).namePattern).toBeUndefined();
    expect(formErrors({ ...base, selectedViews: [] }).selectedViews).toBeDefined();
    expect(formErrors({ ...base, targetSchema: ' ' }).targetSchema).toBeDefined();
    expect(formErrors({ ...base, overrides: [newOverrideRow('x'), newOverrideRow('x')] }).overrides).toMatch(/two override rows/);
    expect(formErrors({ ...base, overrides: [{ ...newOverrideRow('x'), rootSource: 'schema.table' }] }).overrides).toMatch(/catalog\.schema\.table/);
  });

  it('lists the model views a valid pattern selects, and the reason for an invalid one', () => {
    expect(patternMatches('^sales_', ['sales_daily', 'presales_x', 'sales'])).toEqual({ ok: true, matches: ['sales_daily'] });
    expect(patternMatches('sales', ['sales_daily', 'presales_x'])).toEqual({ ok: true, matches: ['sales_daily', 'presales_x'] });
    const bad = patternMatches('sales[0-9]', ['sales1']);
    expect(bad.ok).toBe(false);
  });

  it('explains a version conflict field by field, marking settings both sides changed', () => {
    const mine = configurationOf({ ...formOf(saved, { catalog: null }), targetNamePrefix: 'sem_', enabled: false });
    const theirs: LakehouseConfiguration = { ...saved, targetNamePrefix: 'mv_', targetSchema: 'gold' };
    const changes = conflictChanges(saved, mine, theirs);
    const byField = Object.fromEntries(changes.map((c) => [c.field, c]));
    expect(Object.keys(byField).sort()).toEqual(['enabled', 'targetNamePrefix', 'targetSchema']);
    expect(byField.targetNamePrefix).toMatchObject({ base: '—', theirs: 'mv_', mine: 'sem_', clash: true });
    expect(byField.targetSchema).toMatchObject({ theirs: 'gold', mine: 'semantic', clash: false });
    expect(byField.enabled).toMatchObject({ mine: 'disabled', theirs: 'enabled', clash: false });
  });

  it('reports only the fields the form changed against the saved settings', () => {
    const form = formOf(saved, { catalog: null });
    expect(changedFields(saved, form)).toEqual([]);
    expect(changedFields(saved, { ...form, selectedViews: ['a', 'b'] })).toEqual(['Selected views']);
  });

  it('previews the form’s scope and target, leaving out parts the service would refuse', () => {
    const form = formOf(saved, { catalog: null });
    expect(previewInputOf('lake', form)).toEqual({
      dataSourceName: 'lake',
      selectionMode: 'selected',
      selectedViews: ['orders_overview'],
      targetCatalog: 'main',
      targetSchema: 'semantic',
      targetNamePrefix: null,
    });
    const pattern = previewInputOf('lake', { ...form, selectionMode: 'pattern', namePattern: 'a*' });
    expect(pattern.namePattern).toBeUndefined();
  });
});

describe('outcome plot of recent runs', () => {
  it('orders bars oldest first, keeps the most recent runs and stacks successes under failures', () => {
    const runs = [
      run('r3', '2026-01-03T00:00:00Z', { blocked: 1, created: 2 }, 'PARTIAL'),
      run('r1', '2026-01-01T00:00:00Z', { unchanged: 3 }),
      run('r2', '2026-01-02T00:00:00Z', { updated: 1, publish_failed: 2 }, 'PARTIAL'),
    ];
    const bars = chartBars(runs, 2);
    expect(bars.map((b) => b.runId)).toEqual(['r2', 'r3']);
    expect(bars[1].segments).toEqual([
      { outcome: 'created', count: 2, from: 0 },
      { outcome: 'blocked', count: 1, from: 2 },
    ]);
    expect(bars[1].total).toBe(3);
    expect(outcomesPresent(bars)).toEqual(['created', 'updated', 'blocked', 'publish_failed']);
  });

  it('ignores outcome names the contract does not define', () => {
    expect(chartBars([run('r', '2026-01-01T00:00:00Z', { created: 1, exploded: 4 })])[0].total).toBe(1);
  });

  it('uses round axis maxima with whole-number gridlines', () => {
    expect([1, 2, 3, 6, 11, 49, 128].map(niceMax)).toEqual([1, 2, 5, 10, 20, 50, 200]);
    expect(axisTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(axisTicks(20)).toEqual([0, 4, 8, 12, 16, 20]);
    expect(axisTicks(200).every(Number.isInteger)).toBe(true);
  });

  it('announces a partial run with its outcome counts and a link to the run', () => {
    const said = runAnnouncement(7, { runId: 'r 1', dataSourceName: 'lake', status: 'PARTIAL', outcomeCounts: { blocked: 1, created: 2 }, error: null, incompleteViewCount: 0 });
    expect(said).toMatchObject({ title: 'Publication to lake partly published', tone: 'warn', path: lakehousePath(7, 'lake', 'runs', 'r 1') });
    expect(said.body).toContain('2 created, 1 blocked');
    expect(said.path).toBe('/syncs/7/lakehouse/lake/runs/r%201');
  });

  it('announces a failed run in plain words, the code behind Details', () => {
    const said = runAnnouncement(7, { runId: 'r2', dataSourceName: 'lake', status: 'FAILED', outcomeCounts: {}, error: { code: 'LAKEHOUSE_UNAVAILABLE', message: 'connect ECONNREFUSED' }, incompleteViewCount: 0 });
    expect(said).toMatchObject({ title: 'Publication to lake failed', tone: 'bad', details: { code: 'LAKEHOUSE_UNAVAILABLE', message: 'connect ECONNREFUSED' } });
    expect(said.body).toMatch(/^The lakehouse cannot be reached\. Check the workspace address/);
    expect(said.body).not.toContain('LAKEHOUSE_UNAVAILABLE');
  });
});

describe('warehouse jobs', () => {
  it('reads what a job asked for from its request', () => {
    expect(requestOf(job({}))).toEqual({ schema: 'PUBLIC', prefix: 'SV_', viewNames: ['orders', 'sales', 'returns'], outputPath: null, helperViewSchema: null });
    expect(scopeText(job({}))).toBe('orders, sales +1');
    expect(scopeText(job({ direction: 'pull', request: { schema: 'PUBLIC', outputPath: 'model/x' } }))).toBe('every semantic view');
  });

  it('places the current stage among the direction’s stages and labels it', () => {
    expect(stageSteps('push', 'creating-views').index).toBe(4);
    expect(stageSteps('pull', 'committing').stages).toContain('describing-views');
    expect(stageSteps('push', 'unknown').index).toBe(-1);
    expect(stageLabel('generating-ddl')).toBe('Generating DDL');
  });

  it('asks the service for the statuses of each filter', () => {
    expect(statusesOf('all')).toEqual([]);
    expect(statusesOf('active')).toEqual(['QUEUED', 'RUNNING', 'CANCELLING']);
  });

  it('announces a failed job in plain words with the fix, its code and message behind Details, and a link to its detail', () => {
    const said = endAnnouncement(3, job({ status: 'FAILED', error: { code: 'SQL_RUNNER_DDL_DISABLED', message: 'DDL is off' } }));
    expect(said).toMatchObject({ title: 'Push failed', tone: 'bad', path: warehouseJobPath(3, 'push', 'a1b2c3d4-0000-0000-0000-000000000000') });
    expect(said.body).toContain('failed. The warehouse does not allow creating views from here. Ask the warehouse admin');
    expect(said.body).not.toContain('SQL_RUNNER_DDL_DISABLED');
    expect(said.details).toEqual({ code: 'SQL_RUNNER_DDL_DISABLED', message: 'DDL is off' });
    // A code Drydock has no words for: the job's own message, the code still behind Details.
    const unknown = endAnnouncement(3, job({ status: 'FAILED', error: { code: 'NEW_CODE_XYZ', message: 'Something new went wrong.' } }));
    expect(unknown.body).toContain('failed. Something new went wrong.');
    expect(unknown.details?.code).toBe('NEW_CODE_XYZ');
    expect(endAnnouncement(3, job({})).title).toBe('Push completed');
  });

  it('splits pull view names and patterns on commas and whitespace, once each', () => {
    expect(parseViewPatterns(' ORDERS, SALES_*\nORDERS  ')).toEqual(['ORDERS', 'SALES_*']);
    expect(parseViewPatterns('  ')).toEqual([]);
  });

  it('accepts pull output folders under model/ or schema/ only', () => {
    expect(outputPathProblem('model/pulled')).toBeNull();
    expect(outputPathProblem('schema/x/')).toBeNull();
    expect(outputPathProblem('pulled')).toMatch(/under model\//);
    expect(outputPathProblem('model/../x')).toMatch(/\.\./);
    expect(outputPathProblem('')).toMatch(/Name a folder/);
  });

  it('shows a view’s helper views before its semantic view, each ending with a semicolon', () => {
    const text = ddlOf({ ddl: 'CREATE OR REPLACE SEMANTIC VIEW S TABLES (t)', helperViews: [{ entity: 'cats', name: 'H', ddl: 'CREATE VIEW H AS SELECT 1;' }] });
    expect(text.indexOf('CREATE VIEW H')).toBeLessThan(text.indexOf('SEMANTIC VIEW'));
    expect(text).toContain('-- Helper view for entity cats');
    expect(text.trim().endsWith('TABLES (t);')).toBe(true);
    expect(text).not.toContain(';;');
  });

  it('formats durations for tables', () => {
    expect(durationText(elapsedMs('2026-01-01T00:00:01.000Z', '2026-01-01T00:00:03.500Z'))).toBe('2.5 s');
    expect(durationText(850)).toBe('850 ms');
    expect(durationText(125_000)).toBe('2 min 05 s');
    expect(durationText(null)).toBe('—');
  });
});

describe('model views for the pickers', () => {
  it('lists the views of a compiled model with whether each can be pushed and why not', () => {
    const { model } = compileModel([
      {
        path: 'model/cubes/orders.yml',
        content: [
          'cubes:',
          '  - name: orders',
          '    sql_table: shop.orders',
          '    dimensions:',
          '      - name: id',
          '        sql: id',
          '        type: number',
          '        primary_key: true',
          '    measures:',
          '      - name: count',
          '        type: count',
          '      - name: ratio',
          '        sql: "{count} / 2"',
          '        type: number',
          'views:',
          '  - name: plain',
          '    cubes:',
          '      - join_path: orders',
          '        includes: [id, count]',
          '  - name: with_ratio',
          '    public: false',
          '    cubes:',
          '      - join_path: orders',
          '        includes: [id, ratio]',
          '  - name: guarded',
          '    cubes:',
          '      - join_path: orders',
          '        includes: [id, count]',
          '    access_policy:',
          '      - group: support',
          '        member_level:',
          '          includes: "*"',
          '',
        ].join('\n'),
      },
    ]);
    const views = viewsOf(model);
    expect(views.map((v) => v.name)).toEqual(['guarded', 'plain', 'with_ratio']);
    // A view with an access policy is pushable, but the push drops the policy (and warns about it).
    expect(views.shift()).toMatchObject({ name: 'guarded', pushable: true, droppedPolicies: ['guarded'] });
    expect(views[0]).toMatchObject({ pushable: true, public: true, pushIssues: [], droppedPolicies: [] });
    expect(views[1].public).toBe(false);
    expect(views[1].pushable).toBe(false);
    expect(views[1].pushIssues.join(' ')).toMatch(/ratio/);
  });
});
