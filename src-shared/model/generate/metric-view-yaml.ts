// Model view → lakehouse metric view YAML (metric view specification version 1.1).
//
// One model view becomes one metric view: the root cube's table is the `source`, every other cube on
// the view's join paths a (nested, for multi-hop paths) many-to-one `join` named after the cube,
// every exposed dimension a `dimension` and every exposed measure an aggregate `measure`. Member SQL
// is rewritten into metric view expressions: `{CUBE}` and cube references become join names
// (`source` for the root, `a.b` for a nested join), member references are inlined, bare columns are
// qualified with their cube's join name, and double-quoted identifiers become backticked ones.
// What the analyzer finds (spec rules 6–7) decides whether a view is blocked and which fan-out-unsafe
// measures are withheld. The YAML is emitted so a YAML 1.1 reader gets the same values back: keys
// such as `on` are quoted.
//
// The work is split under `metric-view/`: the definition and its YAML (`spec.ts`), SQL text
// handling (`sql-text.ts`) and the generator (`generator.ts`); this module runs the analysis and
// the generator and says what is blocked, withheld or warned about.

import { analyzeLakehousePublish, type LakehousePublishAnalysis } from '../analyze';
import { DiagnosticCodes as C } from '../codes';
import type { CompiledModel, Diagnostic } from '../types';
import { Generator } from './metric-view/generator';
import { renderMetricViewYaml, type MetricViewIssue, type MetricViewSpec } from './metric-view/spec';
import { own } from '../dict';

export {
  METRIC_VIEW_SPEC_VERSION,
  renderMetricViewYaml,
  type MetricViewFieldSpec,
  type MetricViewIssue,
  type MetricViewJoinSpec,
  type MetricViewSpec,
} from './metric-view/spec';
export { splitTableName } from './metric-view/sql-text';

export interface MetricViewYamlOptions {
  /** The data source's catalog setting: qualifies two-part `schema.table` sources. */
  catalog?: string | null;
  /** A `catalog.schema.table` (or query) used as `source` instead of the root cube's table. */
  rootSource?: string | null;
  /** The lakehouse analysis of the view, when the caller already ran it. */
  analysis?: LakehousePublishAnalysis;
  /** The data source published to: a view of another data source is blocked. */
  dataSource?: string;
}

export interface MetricViewYaml {
  view: string;
  /** `partial`: publishable with withheld members. */
  status: 'ok' | 'partial' | 'blocked';
  /** Null when blocked. */
  yaml: string | null;
  spec: MetricViewSpec | null;
  blockedReasons: MetricViewIssue[];
  warnings: MetricViewIssue[];
  /** Exposed names of the fan-out-unsafe measures left out of the definition. */
  withheldMembers: string[];
}


/**
 * The metric view YAML of `viewName`, or why it cannot be published. Never throws for model
 * content: anything it cannot represent comes back as a blocked reason.
 */
export function generateMetricViewYaml(model: CompiledModel, viewName: string, options: MetricViewYamlOptions = {}): MetricViewYaml {
  const catalog = options.catalog?.trim() ? options.catalog.trim() : null;
  const rootSource = options.rootSource?.trim() ? options.rootSource.trim() : null;
  const view = own(model.views, viewName);
  const analysis = options.analysis ?? analyzeLakehousePublish(model, viewName, { catalogConfigured: catalog !== null, dataSource: options.dataSource });
  const blockedReasons = analysis.blockedReasons
    // An explicit root source stands in for the root cube's table, so its missing catalog does not matter.
    .filter((d) => !(rootSource && view?.root && d.code === C.PUBLISH_CATALOG_REQUIRED && d.member === view.root))
    .map(toIssue);
  const warnings = analysis.warnings.map(toIssue);
  const withheldMembers = [...analysis.withheldMembers];
  const blocked = (reasons: MetricViewIssue[]): MetricViewYaml => ({
    view: viewName,
    status: 'blocked',
    yaml: null,
    spec: null,
    blockedReasons: reasons,
    warnings,
    withheldMembers,
  });
  if (!view) return blocked(blockedReasons.length ? blockedReasons : [{ code: C.UNKNOWN_VIEW, message: `The model has no view named '${viewName}'.` }]);
  if (blockedReasons.length > 0) return blocked(blockedReasons);

  const generator = new Generator(model, view, catalog, rootSource, new Set(withheldMembers));
  const spec = generator.run();
  if (spec === null) return blocked(generator.reasons);
  return {
    view: viewName,
    status: withheldMembers.length > 0 ? 'partial' : 'ok',
    yaml: renderMetricViewYaml(spec),
    spec,
    blockedReasons: [],
    warnings,
    withheldMembers,
  };
}

function toIssue(d: Diagnostic): MetricViewIssue {
  return { code: d.reason ?? d.code, message: d.message, ...(d.member ? { member: d.member } : {}) };
}
