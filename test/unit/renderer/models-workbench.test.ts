import { describe, expect, it } from 'vitest';
import type { Branch, ValidationResult } from '../../../src-shared/api/data-model';
import { countsByFile, filesOf } from '../../../src-renderer/src/features/models/diagnostics';
import { DEFAULT_LAYOUT, layoutKey, parseLayout, PANEL_HEIGHT, TREE_WIDTH } from '../../../src-renderer/src/features/models/layout/pane-layout';
import { comparison, staleReason, verdictState } from '../../../src-renderer/src/features/models/layout/verdict';

describe('the workbench layout is remembered per profile and user', () => {
  it('keys the layout by service profile and user id', () => {
    expect(layoutKey('local', 1)).toBe('drydock.models.layout.local.1');
    expect(layoutKey('staging', 7)).not.toBe(layoutKey('local', 7));
    expect(layoutKey('local', null)).toBe('drydock.models.layout.local.desktop');
  });

  it('reads back what was stored, within the panes’ bounds', () => {
    expect(parseLayout(JSON.stringify({ treeOpen: false, panelOpen: true, treeWidth: 320, panelHeight: 260, dataSideWidth: 300 }))).toEqual({
      treeOpen: false,
      panelOpen: true,
      treeWidth: 320,
      panelHeight: 260,
      dataSideWidth: 300,
    });
    const clamped = parseLayout(JSON.stringify({ treeWidth: 5000, panelHeight: 3 }));
    expect(clamped.treeWidth).toBe(TREE_WIDTH.max);
    expect(clamped.panelHeight).toBe(PANEL_HEIGHT.min);
  });

  it('falls back to the defaults for a missing, broken or foreign entry', () => {
    expect(parseLayout(null)).toEqual(DEFAULT_LAYOUT);
    expect(parseLayout('{not json')).toEqual(DEFAULT_LAYOUT);
    expect(parseLayout('[1,2]')).toEqual(DEFAULT_LAYOUT);
    expect(parseLayout(JSON.stringify({ treeOpen: 'yes', treeWidth: 'wide' }))).toEqual(DEFAULT_LAYOUT);
  });
});

describe('a diagnostic about a view defined elsewhere badges both files', () => {
  const warning = { severity: 'warning' as const, code: 'MODEL_NOT_PUSHABLE', reason: 'MODEL_PUSH_MEASURE_UNSUPPORTED', message: "View 'order_funnel': …", file: 'model/cubes/orders.yml', line: 88, column: 9, viewFile: 'model/views/order_funnel.yml' };

  it('counts the warning on the cube’s file and on the view’s file', () => {
    expect(filesOf(warning)).toEqual(['model/cubes/orders.yml', 'model/views/order_funnel.yml']);
    const counts = countsByFile([warning, { ...warning, severity: 'error', code: 'X', viewFile: undefined, file: 'model/cubes/orders.yml' }]);
    expect(counts.get('model/cubes/orders.yml')).toEqual({ errors: 1, warnings: 1 });
    expect(counts.get('model/views/order_funnel.yml')).toEqual({ errors: 0, warnings: 1 });
  });

  it('a finding located in the view’s own file counts once', () => {
    expect(countsByFile([{ ...warning, file: 'model/views/order_funnel.yml' }]).get('model/views/order_funnel.yml')).toEqual({ errors: 0, warnings: 1 });
  });
});

describe('the service check says when it is stale and never contradicts the editor', () => {
  const head = 'a'.repeat(40);
  const branch = { branchName: 'dev-1', headCommit: head } as Branch;
  const result: ValidationResult = { branchName: 'dev-1', commit: head, valid: true, fileCount: 11, errorCount: 0, warningCount: 0, diagnostics: [] };
  const versions = { 'model/cubes/orders.yml': 'v1', 'model/views/order_funnel.yml': 'v2' };
  const state = (over: Partial<{ versions: Record<string, string>; headCommit: string }> = {}) => ({
    server: { result, unsavedAtCheck: 0, versionsAtCheck: versions },
    versions: over.versions ?? versions,
    branches: [{ ...branch, headCommit: over.headCommit ?? head }],
    branchName: 'dev-1',
  });

  it('is fresh while the files are the ones it checked', () => {
    expect(staleReason(state())).toBeNull();
    expect(verdictState(state())).toMatchObject({ tone: 'good', label: 'Valid on the service' });
  });

  it('is stale once a file was saved since, and after a commit that changed files', () => {
    expect(staleReason(state({ versions: { ...versions, 'model/cubes/orders.yml': 'v3' } }))).toBe('orders.yml changed since this check');
    const moved = state({ versions: { ...versions, 'model/cubes/new.yml': 'v9' }, headCommit: 'b'.repeat(40) });
    expect(staleReason(moved)).toBe(`new.yml changed since this check (the branch moved from aaaaaaa to bbbbbbb)`);
    expect(verdictState(moved)).toMatchObject({ tone: 'stale', label: 'Validation stale' });
  });

  it('a commit of the very files it checked keeps it, and says so', () => {
    const committed = state({ headCommit: 'c'.repeat(40) });
    expect(staleReason(committed)).toBeNull();
    expect(verdictState(committed).detail).toContain('The same files are now committed as ccccccc');
  });

  it('names the editor’s push and publish warnings as its own rather than as a disagreement', () => {
    const push = { severity: 'warning' as const, code: 'MODEL_NOT_PUSHABLE', reason: 'MODEL_PUSH_MEASURE_UNSUPPORTED', message: '…', file: 'model/cubes/orders.yml', line: 88, column: 9 };
    const text = comparison([push], [], 0, null);
    expect(text).toBe('The editor’s compiler finds the same: 0 errors, 0 warnings. The editor also shows 1 push or publish warning: the service checks those when you push or publish.');
    expect(comparison([push], [], 0, 'orders.yml changed since this check')).toMatch(/^Stale: orders\.yml changed since this check\. Validate again/);
  });
});
