// Planning a push — which views, their data source, their DDL — from the compiled model alone.
// Pure (data sources come pre-resolved), so it runs on a compute thread (push-tasks.ts).
import { WarehouseSyncErrorCodes as Codes, type StartPushInput } from '../../../src-shared/api/warehouse-sync';
import { analyzeWarehousePush, own, type CompiledModel } from '../../../src-shared/model';
import { generateSemanticViewDdl, SemanticViewDdlError, type SemanticViewDdl } from '../../../src-shared/model/generate/semantic-view-ddl';

export interface PlannedView {
  viewName: string;
  dataSourceName: string;
  database: string;
  quotedIdentifiersIgnoreCase: boolean;
  generated: SemanticViewDdl;
}

/** A problem response as data (it crosses threads; the HTTP thread throws it as an ApiError). */
export interface ProblemData {
  status: number;
  code: string;
  detail: string;
  extras?: Record<string, unknown>;
}

export interface ResolvedWarehouse {
  name: string;
  database: string;
  quotedIdentifiersIgnoreCase: boolean;
}

/** Data sources by lower-case name: usable as a warehouse, or why not. */
export type WarehouseResolutions = Record<string, { warehouse: ResolvedWarehouse } | { problem: ProblemData }>;

export type PushPlanOutcome =
  | { planned: PlannedView[] }
  | { problem: ProblemData }
  /** A view uses a data source the deployment does not define (the caller reports it). */
  | { unknownDataSource: string };

/**
 * Where a push writes: what was asked, or a dev push's per-user schema / name prefix (its helper
 * views follow, and one-part table names still resolve against the requested schema).
 */
export interface PushPlacement {
  schema: string;
  prefix: string;
  helperSchema: string;
  helperNamePrefix: string;
  defaultSchema: string;
}

export const requestedPlacement = (request: StartPushInput): PushPlacement => ({
  schema: request.schema,
  prefix: request.prefix,
  helperSchema: request.helperViewSchema ?? 'PUBLIC',
  helperNamePrefix: '',
  defaultSchema: request.schema,
});

/** The data source a view's cubes use; null when they use several. */
function dataSourceOfView(model: CompiledModel, viewName: string): string | null {
  const names = new Set<string>();
  for (const path of own(model.views, viewName)?.joinPaths ?? []) {
    for (const cube of path) {
      const source = own(model.cubes, cube)?.dataSource;
      if (source) names.add(source);
    }
  }
  return names.size === 1 ? [...names][0]! : names.size === 0 ? 'default' : null;
}

interface Refusal {
  pointer: string;
  detail: string;
  view: string;
  code: string;
}

/**
 * Checks that every requested view exists, is pushable and generates, and returns the DDL of
 * each; otherwise the 422 problem with one `errors[]` entry per reason. Writes nothing.
 */
export function planPushOf(
  model: CompiledModel,
  request: StartPushInput,
  dataSources: WarehouseResolutions,
  placement: PushPlacement = requestedPlacement(request),
): PushPlanOutcome {
  const refusals: Refusal[] = [];
  const missing: Refusal[] = [];
  const planned: PlannedView[] = [];
  for (const [index, viewName] of request.viewNames.entries()) {
    const pointer = `/body/viewNames/${index}`;
    if (!own(model.views, viewName)) {
      const known = Object.keys(model.views);
      missing.push({
        pointer,
        view: viewName,
        code: Codes.MODEL_VIEW_NOT_FOUND,
        detail: `The model has no view '${viewName}'${known.length ? ` (views: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''})` : ''}.`,
      });
      continue;
    }
    const analysis = analyzeWarehousePush(model, viewName);
    if (!analysis.pushable) {
      for (const issue of analysis.issues) {
        refusals.push({ pointer, view: viewName, code: issue.reason ?? issue.code, detail: `${issue.message} (${issue.file}:${issue.line}:${issue.column})` });
      }
      continue;
    }
    const sourceName = dataSourceOfView(model, viewName);
    if (sourceName === null) {
      refusals.push({ pointer, view: viewName, code: 'MODEL_PUSH_MIXED_DATA_SOURCES', detail: `View '${viewName}' joins cubes of several data sources; a semantic view lives in one warehouse.` });
      continue;
    }
    const resolved = dataSources[sourceName.toLowerCase()];
    if (!resolved) return { unknownDataSource: sourceName };
    if ('problem' in resolved) return { problem: resolved.problem };
    const dataSource = resolved.warehouse;
    try {
      const generated = generateSemanticViewDdl(model, viewName, {
        name: `${placement.prefix}${viewName}`,
        database: dataSource.database,
        schema: placement.schema,
        helperSchema: placement.helperSchema,
        helperNamePrefix: placement.helperNamePrefix,
        defaultSchema: placement.defaultSchema,
        quotedIdentifiersIgnoreCase: dataSource.quotedIdentifiersIgnoreCase,
        analysis,
      });
      planned.push({ viewName, dataSourceName: dataSource.name, database: dataSource.database, quotedIdentifiersIgnoreCase: dataSource.quotedIdentifiersIgnoreCase, generated });
    } catch (error) {
      if (!(error instanceof SemanticViewDdlError)) throw error;
      for (const reason of error.reasons.length ? error.reasons : [{ code: error.code, message: error.message }]) {
        refusals.push({ pointer, view: viewName, code: reason.code, detail: reason.message });
      }
    }
  }
  if (missing.length > 0) {
    return {
      problem: { status: 422, code: Codes.MODEL_VIEW_NOT_FOUND, detail: missing.map((m) => m.detail).join(' '), extras: { errors: missing.map(({ pointer, detail }) => ({ pointer, detail })) } },
    };
  }
  if (refusals.length > 0) {
    const views = [...new Set(refusals.map((r) => r.view))];
    return {
      problem: {
        status: 422,
        code: Codes.MODEL_NOT_PUSHABLE,
        detail: `${views.length === 1 ? `View '${views[0]}' cannot` : `Views ${views.map((v) => `'${v}'`).join(', ')} cannot`} be pushed as semantic views: ${refusals
          .map((r) => r.detail)
          .join('; ')}`,
        extras: { errors: refusals.map(({ pointer, detail }) => ({ pointer, detail })), reasons: refusals.map(({ view, code, detail }) => ({ view, code, detail })) },
      },
    };
  }
  return { planned };
}
