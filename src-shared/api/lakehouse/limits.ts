// The lakehouse publication's limits, enumerations (selection modes, run and per-view outcomes) and error codes.

// ---- limits and enumerations ---------------------------------------------------------------------

/** Views one preview or sync may resolve per data source. */
export const MAX_VIEWS_PER_SCOPE = 128;
/** Longest name pattern, in characters. */
export const MAX_NAME_PATTERN_LENGTH = 128;
/** How long a preview's request and result are kept. */
export const PREVIEW_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export const SELECTION_MODES = ['all', 'selected', 'pattern'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];

/** `delete-managed` is deprecated: accepted, and behaves like `retain` (nothing is deleted). */
export const DELETION_POLICIES = ['retain', 'delete-managed'] as const;
export type DeletionPolicy = (typeof DELETION_POLICIES)[number];

export const RUN_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const RUN_VIEW_OUTCOMES = [
  'unchanged',
  'created',
  'updated',
  'blocked',
  'validation_failed',
  'publish_failed',
  'retained_obsolete',
  'deleted_obsolete',
] as const;
export type RunViewOutcome = (typeof RUN_VIEW_OUTCOMES)[number];

/** Outcomes that count as success: a run whose views all end in one of these is COMPLETED. */
export const SUCCESSFUL_RUN_OUTCOMES: readonly RunViewOutcome[] = ['created', 'updated', 'unchanged', 'retained_obsolete'];

export const PREVIEW_VIEW_OUTCOMES = ['create', 'update', 'unchanged', 'partial', 'blocked', 'retained_obsolete'] as const;
export type PreviewViewOutcome = (typeof PREVIEW_VIEW_OUTCOMES)[number];

export const PREVIEW_ACTIONS = ['create', 'update', 'unchanged'] as const;

export const ACCESS_CHECKS = ['warehouse', 'target_schema', 'source_read', 'create_view', 'replace_view', 'drop_view'] as const;
export type AccessCheckName = (typeof ACCESS_CHECKS)[number];

/** Stable problem codes of this area. */
export const LakehouseErrorCodes = {
  DATA_SOURCE_NOT_FOUND: 'LAKEHOUSE_DATA_SOURCE_NOT_FOUND',
  NOT_A_LAKEHOUSE_DATA_SOURCE: 'LAKEHOUSE_DATA_SOURCE_REQUIRED',
  SETTINGS_NOT_FOUND: 'LAKEHOUSE_SETTINGS_NOT_FOUND',
  CONFIGURATION_VERSION_CONFLICT: 'LAKEHOUSE_CONFIGURATION_VERSION_CONFLICT',
  NAME_PATTERN_INVALID: 'LAKEHOUSE_NAME_PATTERN_INVALID',
  SCOPE_TOO_LARGE: 'LAKEHOUSE_SCOPE_TOO_LARGE',
  INVALID_CONFIGURATION: 'LAKEHOUSE_INVALID_CONFIGURATION',
  TARGET_NAME_CONFLICT: 'LAKEHOUSE_TARGET_NAME_CONFLICT',
  TARGET_REQUIRED: 'LAKEHOUSE_TARGET_REQUIRED',
  VIEW_OF_OTHER_DATA_SOURCE: 'LAKEHOUSE_VIEW_OF_OTHER_DATA_SOURCE',
  RUN_ACTIVE: 'LAKEHOUSE_RUN_ACTIVE',
  RUN_NOT_FOUND: 'LAKEHOUSE_RUN_NOT_FOUND',
  PREVIEW_NOT_FOUND: 'LAKEHOUSE_PREVIEW_NOT_FOUND',
  PREVIEW_NOT_FINISHED: 'LAKEHOUSE_PREVIEW_NOT_FINISHED',
  PREVIEW_NO_RESULT: 'LAKEHOUSE_PREVIEW_NO_RESULT',
  FEATURE_NOT_ACTIVE: 'LAKEHOUSE_PUBLICATION_NOT_ACTIVATED',
  NO_SUCCESSFUL_BUILD: 'LAKEHOUSE_NO_SUCCESSFUL_BUILD',
  /** A branch that is neither the deploy branch nor a personal dev branch (422). */
  BRANCH_NOT_PUBLISHABLE: 'LAKEHOUSE_BRANCH_NOT_PUBLISHABLE',
  /** A dev publication's per-user schema could not be created. */
  DEV_SCHEMA_FAILED: 'LAKEHOUSE_DEV_SCHEMA_FAILED',
  // Per-view reasons
  TARGET_UNMANAGED: 'LAKEHOUSE_TARGET_UNMANAGED',
  TARGET_MANAGED_ELSEWHERE: 'LAKEHOUSE_TARGET_MANAGED_ELSEWHERE',
  TARGET_DRIFTED: 'LAKEHOUSE_TARGET_DRIFTED',
  WRITE_NOT_CONFIRMED: 'LAKEHOUSE_WRITE_NOT_CONFIRMED',
} as const;
