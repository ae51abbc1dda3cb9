import { Type, type Static } from 'typebox';
import { CANCEL_RULE, DeploymentParams, defineRoute, literals, Nullable, Page, PageQuery, Timestamp } from './contract';

/**
 * Change review (Drydock, issue 26): what a model change does before it merges — the semantic diff
 * of two commits, what it reaches (views, pushed semantic views, published metric views, dashboard
 * widgets, reports, notifications, scheduled tasks) and what breaks, and a data diff: the affected
 * queries run on both commits over the same data and compared row by row. A review is a durable,
 * cancellable job; its result is kept with the commit pair (and the reviewer's rights), so asking
 * again for the same pair answers the stored review.
 */
const TAG = 'Change Review';
const D = '/api/v1/deployments/{deploymentId}';
const DRYDOCK = 'Drydock addition (the platform API has no change review).';

export const REVIEW_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export const REVIEW_STAGES = ['queued', 'reading-uses', 'compiling', 'querying', 'comparing', 'completed'] as const;

export const ReviewErrorCodes = {
  /** 404: the review id is unknown in the deployment (or was made with other rights than the caller's). */
  REVIEW_NOT_FOUND: 'REVIEW_NOT_FOUND',
  /** 404: `base` or `head` names no branch and no commit of the model repository. */
  REF_NOT_FOUND: 'REF_NOT_FOUND',
  /** 409: the result was asked for before the review completed. */
  REVIEW_NOT_COMPLETED: 'REVIEW_NOT_COMPLETED',
  /** Job error: a side's model files could not be read. */
  REVIEW_SOURCE_UNREADABLE: 'REVIEW_SOURCE_UNREADABLE',
} as const;

const Ref = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });

export const ReviewOptions = Type.Object(
  {
    dataDiff: Type.Optional(Type.Boolean({ description: 'Run the affected queries on both commits and compare them (default true)' })),
    rowLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Rows read per query and side (default 1,000)' })),
    maxQueries: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000, description: 'Queries at most: widgets, then reports, then views (default 200)' })),
    maxViewDimensions: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Dimensions of each affected view its measures are broken down by (default 10)' })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 16, description: 'Queries running at once (default 4)' })),
    timeBudgetMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 3_600_000, description: 'Queries not started within this time are skipped (default 60,000)' })),
    tolerance: Type.Optional(
      Type.Object(
        {
          absolute: Type.Optional(Type.Number({ minimum: 0, description: 'Numbers closer than this are equal (default 1e-9)' })),
          relative: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: '…or closer than this fraction of the larger one (default 1e-9)' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ReviewOptions = Static<typeof ReviewOptions>;

export const StartReviewInput = Type.Object(
  {
    head: Type.Optional(Ref('Branch or commit id to review (default: the deploy branch)')),
    base: Type.Optional(Ref('Branch or commit id to compare with. A branch is compared from where `head` left it (their merge base, as a pull request into it shows); a commit id or `branch~N` as it is (`main~0`: the tip). Default: where `head` left its parent branch; the deploy branch’s previous commit when `head` is the deploy branch')),
    options: Type.Optional(ReviewOptions),
    refresh: Type.Optional(Type.Boolean({ description: 'Review again even when a review of this commit pair is stored (data may have changed)' })),
  },
  { additionalProperties: false },
);
export type StartReviewInput = Static<typeof StartReviewInput>;

const Location = Type.Object({ file: Type.String(), line: Type.Integer(), column: Type.Integer() });

export const AttributeChange = Type.Object({
  attribute: Type.String({ description: 'Model key as written: sql, type, filters, rolling_window, relationship, includes…' }),
  effect: literals(['numbers', 'visibility', 'metadata'] as const),
  before: Type.Unknown({ description: 'JSON of the value before (null when absent)' }),
  after: Type.Unknown({ description: 'JSON of the value after (null when absent)' }),
});

export const ModelChange = Type.Object({
  kind: literals(['added', 'removed', 'renamed', 'changed'] as const),
  target: literals(['cube', 'view', 'dimension', 'measure', 'segment', 'hierarchy', 'pre_aggregation', 'join', 'view_cube', 'view_member'] as const),
  entity: Type.String(),
  entityKind: literals(['cube', 'view'] as const),
  name: Type.String({ description: '`cube.member`, `view.member`, `cube->joined`, `view[join_path]` or the entity name' }),
  previousName: Type.Optional(Type.String({ description: 'renamed: the name it had' })),
  attributes: Type.Array(AttributeChange),
  effect: literals(['numbers', 'visibility', 'metadata'] as const, 'The strongest effect of the change'),
  base: Nullable(Location),
  head: Nullable(Location),
});
export type ModelChange = Static<typeof ModelChange>;

const AffectedMember = Type.Object({
  name: Type.String(),
  kind: literals(['dimension', 'measure', 'segment'] as const),
  reason: literals(['changed', 'removed', 'renamed', 'added', 'depends', 'join', 'entity'] as const),
  via: Type.Array(Type.String(), { description: 'What it reads that changed' }),
  gone: Type.Boolean({ description: 'Queries naming it break: it was removed, renamed or made private' }),
  renamedTo: Type.Optional(Type.String()),
});

const UseStatus = literals(['affected', 'breaks', 'fixed', 'fails'] as const);
const QueryUse = {
  status: UseStatus,
  uses: Type.Array(Type.String(), { description: 'Affected members (or changed joins, `a->b`) the query reads' }),
  message: Nullable(Type.String({ description: 'Why the new model refuses the query' })),
};
const PublishedFields = {
  viewName: Type.String(),
  status: literals(['affected', 'breaks'] as const),
  affectedMembers: Type.Array(Type.String()),
  droppedMembers: Type.Array(Type.String()),
  reasons: Type.Array(Type.String()),
};

export const ReviewImpact = Type.Object({
  members: Type.Array(AffectedMember),
  views: Type.Array(Type.Object({ name: Type.String(), affectedMembers: Type.Array(Type.String()), droppedMembers: Type.Array(Type.String()), removed: Type.Boolean() })),
  widgets: Type.Array(
    Type.Object({ workbookId: Type.Integer(), workbookName: Type.String(), dashboard: literals(['published', 'draft'] as const), widgetId: Type.String(), title: Nullable(Type.String()), ...QueryUse }),
  ),
  reports: Type.Array(Type.Object({ reportId: Type.Integer(), name: Type.String(), ...QueryUse })),
  pushedViews: Type.Array(Type.Object({ ...PublishedFields, semanticView: Type.String(), branchName: Type.String(), syncJobId: Type.String() })),
  publishedViews: Type.Array(Type.Object({ ...PublishedFields, target: Type.String(), dataSourceName: Type.String(), runId: Nullable(Type.String()) })),
  notifications: Type.Array(Type.Object({ notificationId: Type.Integer(), name: Type.String(), workbookId: Type.Integer(), status: literals(['affected', 'breaks'] as const) })),
  scheduledTasks: Type.Array(Type.Object({ taskId: Type.String(), name: Type.String(), mentions: Type.Array(Type.String()) })),
  breaking: Type.Array(Type.Object({ kind: literals(['widget', 'report', 'push', 'publication', 'notification'] as const), subject: Type.String(), message: Type.String() })),
});

const SideProblems = Type.Object({
  errorCount: Type.Integer(),
  errors: Type.Array(Type.Object({ file: Type.String(), line: Type.Integer(), column: Type.Integer(), code: Type.String(), message: Type.String() })),
  entities: Type.Array(Type.String(), { description: 'Cubes and views left out of the review: their files do not compile' }),
});

const RowValues = Type.Record(Type.String(), Type.Unknown());

export const RowsDiff = Type.Object({
  baseRows: Type.Integer(),
  headRows: Type.Integer(),
  onlyBase: Type.Object({ count: Type.Integer(), samples: Type.Array(RowValues) }),
  onlyHead: Type.Object({ count: Type.Integer(), samples: Type.Array(RowValues) }),
  changed: Type.Object({
    count: Type.Integer(),
    samples: Type.Array(Type.Object({ key: RowValues, values: Type.Array(Type.Object({ member: Type.String(), before: Type.Unknown(), after: Type.Unknown() })) })),
  }),
  totals: Type.Array(Type.Object({ member: Type.String(), before: Nullable(Type.Number()), after: Nullable(Type.Number()), delta: Nullable(Type.Number()) })),
  unmatchedColumns: Type.Array(Type.String()),
  same: Type.Boolean(),
});

export const QUERY_DIFF_STATUSES = ['same', 'changed', 'identical', 'failed', 'skipped'] as const;

export const QueryDiff = Type.Object({
  id: Type.String(),
  label: Type.String(),
  source: Type.Union([
    Type.Object({
      kind: Type.Literal('widget'),
      widgets: Type.Array(Type.Object({ workbookId: Type.Integer(), widgetId: Type.String(), dashboard: literals(['published', 'draft'] as const) })),
    }),
    Type.Object({ kind: Type.Literal('report'), reportIds: Type.Array(Type.Integer()) }),
    Type.Object({ kind: Type.Literal('view'), view: Type.String(), dimension: Nullable(Type.String()) }),
  ]),
  status: literals(
    QUERY_DIFF_STATUSES,
    '`same`: no difference; `changed`: rows or numbers differ; `identical`: both sides plan to the same SQL (not run); `failed`: a side failed (see `error`); `skipped`: not run (time budget, cancelled, or a member it reads is hidden from the reviewer by an access policy; see `error`)',
  ),
  query: Type.Object({ base: Type.Record(Type.String(), Type.Unknown()), head: Type.Record(Type.String(), Type.Unknown()) }),
  dataSource: Nullable(Type.String()),
  durationMs: Nullable(Type.Object({ base: Nullable(Type.Number()), head: Nullable(Type.Number()) })),
  truncated: Type.Boolean({ description: 'A side returned as many rows as the row limit: rows past it were not compared' }),
  error: Nullable(Type.Object({ side: literals(['base', 'head', 'both'] as const), message: Type.String() })),
  diff: Nullable(RowsDiff),
});
export type QueryDiff = Static<typeof QueryDiff>;

const ReviewSide = Type.Object({ ref: Type.String({ description: 'As asked (or defaulted)' }), commit: Type.String() });

export const ReviewSummary = Type.Object({
  changes: Type.Integer(),
  numberChanges: Type.Integer({ description: 'Changes that can move numbers' }),
  affectedMembers: Type.Integer(),
  affectedViews: Type.Integer(),
  affectedWidgets: Type.Integer(),
  affectedReports: Type.Integer(),
  breaking: Type.Integer(),
  queries: Type.Integer(),
  queriesChanged: Type.Integer(),
  queriesFailed: Type.Integer(),
  queriesSkipped: Type.Integer(),
});
export type ReviewSummary = Static<typeof ReviewSummary>;

export const ReviewResult = Type.Object({
  base: ReviewSide,
  head: ReviewSide,
  summary: ReviewSummary,
  changes: Type.Array(ModelChange),
  impact: ReviewImpact,
  problems: Type.Object({ base: Nullable(SideProblems), head: Nullable(SideProblems) }),
  dataDiff: Type.Object({
    enabled: Type.Boolean(),
    /** Some queries were skipped because the time budget ran out. */
    budgetExhausted: Type.Boolean(),
    durationMs: Type.Number(),
    queries: Type.Array(QueryDiff),
  }),
});
export type ReviewResult = Static<typeof ReviewResult>;

export const ModelReview = Type.Object({
  reviewId: Type.String(),
  status: literals(REVIEW_STATUSES),
  progress: Type.Object({ stage: Type.String(), percentComplete: Type.Integer({ minimum: 0, maximum: 100 }) }),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  base: ReviewSide,
  head: ReviewSide,
  options: ReviewOptions,
  summary: Nullable(ReviewSummary),
  createdBy: Nullable(Type.Integer()),
  createdAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  statusUrl: Type.String(),
  resultUrl: Type.String(),
});
export type ModelReview = Static<typeof ModelReview>;

export const StartedReview = Type.Object({
  ...ModelReview.properties,
  reused: Type.Boolean({ description: 'The review of this commit pair (same options, same rights) was already stored or under way: this is it' }),
});
export type StartedReview = Static<typeof StartedReview>;

const ReviewParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), reviewId: Type.String({ minLength: 1, maxLength: 64 }) });

export const startModelReview = defineRoute({
  method: 'POST',
  path: `${D}/data-model/reviews`,
  operationId: 'startModelReview',
  tag: TAG,
  summary: 'Review a model change: semantic diff, impact and data diff of two commits',
  description:
    `${DRYDOCK} Needs SchemaRead. Answers 202 with the review; follow \`statusUrl\`, read the result at \`resultUrl\` once COMPLETED. ` +
    'A review of the same commit pair with the same options (and the same rights) is answered from the stored one (`reused: true`) unless `refresh` is set. ' +
    '404 `REF_NOT_FOUND` for a `base` or `head` that names no branch or commit. A side with compile errors is reviewed as far as it compiles; ' +
    'what does not compile is listed under `problems`. Queries run with the caller’s rights.',
  params: DeploymentParams,
  body: StartReviewInput,
  bodyOptional: true,
  status: 202,
  response: StartedReview,
});

export const listModelReviews = defineRoute({
  method: 'GET',
  path: `${D}/data-model/reviews`,
  operationId: 'listModelReviews',
  tag: TAG,
  summary: 'Reviews of the deployment, newest first',
  description: `${DRYDOCK} Only reviews made with the caller’s rights (all of them for admins).`,
  params: DeploymentParams,
  query: Type.Object({ ...PageQuery, head: Type.Optional(Ref('Only reviews whose head was asked as this ref or is this commit')) }),
  response: Page(ModelReview),
});

export const getModelReview = defineRoute({
  method: 'GET',
  path: `${D}/data-model/reviews/{reviewId}`,
  operationId: 'getModelReview',
  tag: TAG,
  summary: 'Status and progress of a review',
  description: DRYDOCK,
  params: ReviewParams,
  response: ModelReview,
});

export const getModelReviewResult = defineRoute({
  method: 'GET',
  path: `${D}/data-model/reviews/{reviewId}/result`,
  operationId: 'getModelReviewResult',
  tag: TAG,
  summary: 'Result of a completed review (409 before)',
  description: `${DRYDOCK} 409 \`REVIEW_NOT_COMPLETED\` while it runs, or when it failed or was cancelled.`,
  params: ReviewParams,
  response: ReviewResult,
});

export const cancelModelReview = defineRoute({
  method: 'DELETE',
  path: `${D}/data-model/reviews/{reviewId}`,
  operationId: 'cancelModelReview',
  tag: TAG,
  summary: 'Cancel a review (queries under way are interrupted)',
  description: `${DRYDOCK} ${CANCEL_RULE}`,
  params: ReviewParams,
  response: ModelReview,
});

export const reviewRoutes = { startModelReview, listModelReviews, getModelReview, getModelReviewResult, cancelModelReview };
