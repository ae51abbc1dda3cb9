// The push and publish analyzers as the incremental compiler (compiler.ts) runs them on each view:
// which of them apply (from the data sources the view's cubes sit on), and their findings turned
// into warnings on the view.

import { analyzeLakehousePublishWith, analyzeWarehousePushWith } from './analyze';
import type { ModelLookup } from './analyze';
import { DiagnosticCodes as C } from './codes';
import type { CompileOptions, Diagnostic } from './types';

/** Which analyzers apply to a view: all of them unless the data sources are known (see `CompileOptions.dataSources`). */
export function analyzerTargets(options: CompileOptions, lookup: ModelLookup, viewName: string): { push: boolean; publish: boolean; catalogConfigured?: boolean } {
  const known = options.dataSources;
  if (!known) return { push: true, publish: true, catalogConfigured: options.catalogConfigured };
  const view = lookup.view(viewName);
  const names = new Set<string>();
  for (const path of view?.joinPaths ?? []) {
    for (const cubeName of path) {
      const cube = lookup.cube(cubeName);
      if (cube) names.add(cube.dataSource);
    }
  }
  // A view that joins no cube is placed on `default`, as the platform does.
  if (names.size === 0) names.add('default');
  const sources = [...names].map((name) => known[name]);
  const lake = sources.find((s) => s?.kind === 'lakehouse');
  return { push: sources.some((s) => s?.kind === 'warehouse'), publish: lake !== undefined, catalogConfigured: Boolean(lake?.catalog) };
}

/** The analyzers' findings on a view, as warnings (metadata the target cannot carry: info). */
export function analyzerDiagnostics(options: CompileOptions, lookup: ModelLookup, viewName: string): Diagnostic[] {
  const targets = analyzerTargets(options, lookup, viewName);
  const push = targets.push ? analyzeWarehousePushWith(lookup, viewName) : { issues: [] };
  const publish = targets.publish
    ? analyzeLakehousePublishWith(lookup, viewName, { catalogConfigured: targets.catalogConfigured })
    : { blockedReasons: [], warnings: [] };
  const surfaced: Diagnostic[] = [];
  // A finding is located where its cause is (often a cube's member); the view it is about is named too.
  const viewFile = lookup.view(viewName)?.file;
  const about = (d: Diagnostic): Diagnostic => (viewFile && viewFile !== d.file ? { ...d, viewFile } : d);
  for (const issue of push.issues) {
    surfaced.push({ ...issue, severity: 'warning', code: C.NOT_PUSHABLE, reason: issue.code, message: `Not pushable as a warehouse semantic view — ${issue.message}` });
  }
  for (const reason of publish.blockedReasons) {
    surfaced.push({ ...reason, severity: 'warning', code: C.NOT_PUBLISHABLE, reason: reason.code, message: `Not publishable as a lakehouse metric view — ${reason.message}` });
  }
  for (const w of publish.warnings) {
    surfaced.push({ ...w, severity: w.code === C.METADATA_NOT_REPRESENTABLE ? 'info' : 'warning' });
  }
  return surfaced.map(about);
}
