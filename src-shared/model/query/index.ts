// Public API of the query planner: REST `load` queries over a compiled model → SQL for DuckDB,
// Snowflake or Databricks. Pure TypeScript, like the rest of the compiler.

export { planQuery, type PlanOptions } from './planner';
export { DIALECTS, duckdbDialect, snowflakeDialect, databricksDialect, type Dialect, type DialectName } from './dialects';
export { formatWall, resolveDateRange, wallTimeIn, type WallTime } from './dates';
export * from './types';
export { hiddenByAccessPolicy, modelMeta, type HiddenEntity, type MetaEntity, type MetaMember } from './meta';
export { axisLayout, MAGNITUDE_RATIO, type AxisLayout, type AxisSeries } from './axes';
export { chartKindOf, chartSeries, formatCategory, formatNumber, toNumber, MAX_SERIES, type ChartSeries, type SeriesColumn, type WidgetChartKind } from './series';
export { compareResults, planModelComparison, sameNumber, sameObjectName, vendorSqlTarget, COMPARISON_ROW_LIMIT, type ComparedColumn, type ComparedView, type ComparedViewMember, type ComparisonOutcome, type ComparisonPlan } from './vendor-compare';
