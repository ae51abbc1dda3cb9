import { Type, type Static } from 'typebox';
import { CANCEL_RULE, DeploymentParams, defineRoute, literals, Nullable, Page, PageQuery, Timestamp } from './contract';
import { ModelDiagnostic } from './data-model/shapes';

/**
 * Model tests (Drydock, issue 26): `tests/*.yml` of the model repository, run on their fixture
 * tables (CSV or Parquet files of the repository, loaded into a throwaway DuckDB) or a data source.
 * A run is a durable, cancellable job; a build of the deploy branch starts one and notes its outcome
 * on the build. Validation shows the failures of the run of exactly what it checks.
 */
const TAG = 'Model Tests';
const D = '/api/v1/deployments/{deploymentId}';
const DRYDOCK = 'Drydock addition (the platform API has no model tests).';

export const TEST_RUN_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export const TEST_RUN_OUTCOMES = ['passed', 'failed', 'none'] as const;

export const ModelTestErrorCodes = {
  /** 404: the test run id is unknown in the deployment. */
  TEST_RUN_NOT_FOUND: 'TEST_RUN_NOT_FOUND',
  /** Job error: the commit's files could not be read. */
  TEST_SOURCE_UNREADABLE: 'TEST_SOURCE_UNREADABLE',
} as const;

export const StartTestRunInput = Type.Object(
  {
    branchName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Branch to test (default: the deploy branch); its uncommitted edits included, as dev mode sees it' })),
    workingEdits: Type.Optional(Type.Boolean({ description: 'Include the branch’s uncommitted edits (default true, except on the deploy branch)' })),
  },
  { additionalProperties: false },
);
export type StartTestRunInput = Static<typeof StartTestRunInput>;

export const TestSummary = Type.Object({
  total: Type.Integer(),
  passed: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Integer(),
  skipped: Type.Integer(),
  durationMs: Type.Number(),
});
export type TestSummary = Static<typeof TestSummary>;

export const TestResult = Type.Object({
  file: Type.String(),
  name: Type.String(),
  line: Type.Integer(),
  column: Type.Integer(),
  status: literals(['passed', 'failed', 'error', 'skipped'] as const),
  durationMs: Type.Number(),
  failures: Type.Array(Type.Object({ message: Type.String(), line: Type.Integer(), column: Type.Integer() }), { description: 'Expectations that did not hold, each on its line' }),
  message: Nullable(Type.String({ description: 'Why the test could not run, or was skipped' })),
});
export type TestResult = Static<typeof TestResult>;

export const TestRun = Type.Object({
  testRunId: Type.String(),
  status: literals(TEST_RUN_STATUSES),
  progress: Type.Object({ stage: Type.String(), percentComplete: Type.Integer({ minimum: 0, maximum: 100 }) }),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  trigger: literals(['manual', 'build'] as const),
  buildId: Nullable(Type.String()),
  branchName: Type.String(),
  commit: Type.String(),
  outcome: Nullable(literals(TEST_RUN_OUTCOMES, '`passed`: every test passed (or was skipped) and the test files have no problem; `failed`: not so; `none`: no tests')),
  summary: Nullable(TestSummary),
  results: Nullable(Type.Array(TestResult)),
  diagnostics: Nullable(Type.Array(ModelDiagnostic, { description: 'Problems of the test files (and the model’s errors), on their lines' })),
  createdBy: Nullable(Type.Integer()),
  createdAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  statusUrl: Type.String(),
});
export type TestRun = Static<typeof TestRun>;

const RunParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), testRunId: Type.String({ minLength: 1, maxLength: 64 }) });

export const startModelTestRun = defineRoute({
  method: 'POST',
  path: `${D}/data-model/test-runs`,
  operationId: 'startModelTestRun',
  tag: TAG,
  summary: 'Run the model tests of a branch',
  description: `${DRYDOCK} Needs SchemaUpdate. Answers 202 with the run; 404 \`BRANCH_NOT_FOUND\` for an unknown branch.`,
  params: DeploymentParams,
  body: StartTestRunInput,
  bodyOptional: true,
  status: 202,
  response: TestRun,
});

export const listModelTestRuns = defineRoute({
  method: 'GET',
  path: `${D}/data-model/test-runs`,
  operationId: 'listModelTestRuns',
  tag: TAG,
  summary: 'Test runs of the deployment, newest first (without per-test results)',
  description: `${DRYDOCK} Needs SchemaUpdate.`,
  params: DeploymentParams,
  query: Type.Object({
    ...PageQuery,
    branchName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    commit: Type.Optional(Type.String({ minLength: 40, maxLength: 40 })),
    trigger: Type.Optional(literals(['manual', 'build'] as const)),
  }),
  response: Page(TestRun),
});

export const getModelTestRun = defineRoute({
  method: 'GET',
  path: `${D}/data-model/test-runs/{testRunId}`,
  operationId: 'getModelTestRun',
  tag: TAG,
  summary: 'A test run, with its per-test results once it ended',
  description: `${DRYDOCK} Needs SchemaUpdate.`,
  params: RunParams,
  response: TestRun,
});

export const cancelModelTestRun = defineRoute({
  method: 'DELETE',
  path: `${D}/data-model/test-runs/{testRunId}`,
  operationId: 'cancelModelTestRun',
  tag: TAG,
  summary: 'Cancel a test run',
  description: `${DRYDOCK} ${CANCEL_RULE}`,
  params: RunParams,
  response: TestRun,
});

export const modelTestRoutes = { startModelTestRun, listModelTestRuns, getModelTestRun, cancelModelTestRun };
