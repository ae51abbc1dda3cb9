// Change review (issue 26): semantic diff, impact and data diff of two compiled models. Pure: runs
// on the service's worker threads and in the command line alike.
export { diffModels } from './diff';
export { affectedMembers, reviewImpact } from './impact';
export type { BreakingChange, ImpactOptions, MetricViewImpact, NotificationImpact, PushedViewImpact, QueryUseImpact, ReportImpact, ReviewImpact, ScheduledTaskImpact, UseStatus, ViewImpact, WidgetImpact } from './impact';
export { NO_REVIEW_FACTS, queryMembers } from './facts';
export type { NotificationFact, PublicationFact, PushFact, ReportFact, ReviewFacts, ScheduledTaskFact, WidgetFact } from './facts';
export { DEFAULT_DATA_DIFF_LIMITS, dataDiffQueries, planSide } from './queries';
export type { DataDiffLimits, DiffQuery, DiffQuerySource, PlannedSide, PlanSideOptions } from './queries';
export { batchStatements, pickRows } from './batch';
export type { BatchSide, SidePick, StatementBatch, StatementRun } from './batch';
export { compareRows, DEFAULT_TOLERANCE, valuesEqual } from './compare';
export type { ChangedRow, MeasureTotal, RowsDiff, RowValues, SideRows, Tolerance } from './compare';
export { prepareReview, sideProblems } from './review';
export type { PlannedDiffQuery, PrepareOptions, PreparedReview } from './review';
export type { AffectedMember, AffectedReason, AttributeChange, ChangeEffect, ChangeKind, ChangeTarget, ModelChange, SideProblems } from './types';
