import { Type, type Static, type TSchema } from 'typebox';
import { defineRoute, Nullable, Timestamp } from './contract';

/**
 * Queries over the data model:
 * - the platform's REST data API (`load`, `sql`, `meta`) per deployment (deploy branch) and per
 *   dev-mode branch, at the paths the official client expects (`…/cubejs-api/v1`), answering
 *   `{ "error": "Continue wait" }` while a query runs, as the platform does;
 * - query runs for the app's data preview (progress, cancel, the generated SQL);
 * - the tables of the local emulators' data plane, and loading CSV or Parquet files into them.
 */
const DATA_TAG = 'Data API';
const PREVIEW_TAG = 'Data Preview';
const TABLES_TAG = 'Emulator Tables';
const D = '/api/v1/deployments/{deploymentId}';

export const DATA_API_BASE = (deploymentId: number, branch?: string) =>
  branch === undefined ? `/deployments/${deploymentId}/cubejs-api/v1` : `/deployments/${deploymentId}/dev-mode/${encodeURIComponent(branch)}/cubejs-api/v1`;

export const QueryErrorCodes = {
  /** 400: the query does not fit the model (unknown member, bad filter, …); `error` says what. */
  INVALID_QUERY: 'INVALID_QUERY',
  /** 403: an access policy hides a member from the caller. */
  ACCESS_DENIED: 'ACCESS_DENIED',
  /** 422: the branch's model has errors, so it cannot answer queries. */
  MODEL_INVALID: 'MODEL_INVALID',
  /** 422: the data source is not one Drydock can query. */
  DATA_SOURCE_UNSUPPORTED: 'DATA_SOURCE_UNSUPPORTED',
  /** 502: the engine rejected the SQL or failed while running it. */
  QUERY_FAILED: 'QUERY_FAILED',
  QUERY_RUN_NOT_FOUND: 'QUERY_RUN_NOT_FOUND',
  /** 400: the file is not readable CSV or Parquet; nothing was imported. */
  TABLE_FILE_INVALID: 'TABLE_FILE_INVALID',
  TABLE_FILE_NOT_FOUND: 'TABLE_FILE_NOT_FOUND',
  /** 409: the table exists and `replace` was not asked. */
  TABLE_EXISTS: 'TABLE_EXISTS',
  TABLE_NOT_FOUND: 'TABLE_NOT_FOUND',
  /** 400: the statement is not one SELECT the data source's engine accepts (syntax, unknown member, …). */
  SQL_INVALID: 'SQL_INVALID',
  /** 403: the data source's role or principal may not read what the statement reads. */
  SQL_ACCESS_DENIED: 'SQL_ACCESS_DENIED',
} as const;

const FreeForm = (description: string) => Type.Object({}, { additionalProperties: true, description });

const LoadQueryString = {
  query: Type.Optional(Type.String({ description: 'The query as JSON (an object, or a list of objects)' })),
  queryType: Type.Optional(Type.String({ description: '`multi` for the `{ queryType, results }` answer the official client asks for' })),
};
const LoadBody = Type.Object(
  {
    query: Type.Union([FreeForm('A query'), Type.Array(FreeForm('A query'))]),
    queryType: Type.Optional(Type.String()),
    cache: Type.Optional(
      Type.String({ maxLength: 64, description: 'The official client’s cache mode (`stale-if-slow`, …): accepted and ignored, every query runs' }),
    ),
  },
  // The one body that ignores keys it does not describe: see UNKNOWN_FIELDS_IGNORED in ./unknown-fields.ts.
  { additionalProperties: true, description: 'Other keys the client sends are accepted and ignored' },
);

const DeployParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) });
const DevParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), branchName: Type.String({ minLength: 1, maxLength: 255 }) });

const LoadResponse = FreeForm('`{ query, data, annotation, … }`, `{ queryType, results, pivotQuery }` for `queryType=multi`, or `{ error: "Continue wait" }` while the query runs');
const SqlResponse = Type.Union([FreeForm('`{ sql: { sql: [text, params], … } }`'), Type.Array(FreeForm('One per query of a list'))]);
/**
 * Drydock's extension of `meta` (issue 24), beside the platform's `cubes`: for a signed-in user (not a
 * deployment, environment, embed or OAuth token), the cubes and views access policies hide from them
 * entirely, each with the groups and roles its policies are written for. Clients that read only
 * `cubes` (the official client) are unaffected.
 */
export const META_HIDDEN_KEY = 'x-drydock-hiddenByAccessPolicy';
const MetaResponse = FreeForm(
  '`{ cubes: [...] }`: the cubes and views the caller may query, with their members. Drydock extension: for a signed-in user, ' +
    '`x-drydock-hiddenByAccessPolicy` lists the cubes and views access policies hide from them: `[{ name, title, type, visibleTo: [group or role] }]`',
);

function dataRoutes<P extends TSchema>(prefix: string, params: P, idPrefix: string, where: string) {
  return {
    load: defineRoute({ method: 'GET', path: `${prefix}/load`, operationId: `${idPrefix}Load`, tag: DATA_TAG, summary: `Run a query on ${where}`, params, query: Type.Object(LoadQueryString), response: LoadResponse }),
    loadPost: defineRoute({ method: 'POST', path: `${prefix}/load`, operationId: `${idPrefix}LoadPost`, tag: DATA_TAG, summary: `Run a query on ${where} (query in the body)`, params, body: LoadBody, response: LoadResponse }),
    sql: defineRoute({ method: 'GET', path: `${prefix}/sql`, operationId: `${idPrefix}Sql`, tag: DATA_TAG, summary: `The SQL a query runs on ${where}`, params, query: Type.Object(LoadQueryString), response: SqlResponse }),
    sqlPost: defineRoute({ method: 'POST', path: `${prefix}/sql`, operationId: `${idPrefix}SqlPost`, tag: DATA_TAG, summary: `The SQL a query runs on ${where} (query in the body)`, params, body: LoadBody, response: SqlResponse }),
    meta: defineRoute({
      method: 'GET',
      path: `${prefix}/meta`,
      operationId: `${idPrefix}Meta`,
      tag: DATA_TAG,
      summary: `The cubes and views of ${where}`,
      params,
      query: Type.Object({ onlyViews: Type.Optional(Type.Boolean()), extended: Type.Optional(Type.Boolean()) }),
      response: MetaResponse,
    }),
  };
}

export const deploymentDataApi = dataRoutes('/deployments/{deploymentId}/cubejs-api/v1', DeployParams, 'dataApi', "the deployment's deploy branch");
export const devModeDataApi = dataRoutes('/deployments/{deploymentId}/dev-mode/{branchName}/cubejs-api/v1', DevParams, 'devModeDataApi', 'a dev-mode branch (its uncommitted edits included)');

// ---- query runs (the app's data preview) -----------------------------------------------------

export const QUERY_RUN_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type QueryRunStatus = (typeof QUERY_RUN_STATUSES)[number];

export const ResultColumnInfo = Type.Object({
  key: Type.String({ description: 'Key in each row, e.g. orders.created_at.month' }),
  title: Type.String(),
  kind: Type.Enum(['measure', 'dimension', 'timeDimension']),
  type: Type.String(),
  format: Type.Optional(Type.Unknown()),
});
export type ResultColumnInfo = Static<typeof ResultColumnInfo>;

export const QueryRun = Type.Object({
  id: Type.String(),
  status: Type.Enum([...QUERY_RUN_STATUSES]),
  progress: Type.Object({ stage: Type.String(), percentComplete: Type.Integer({ minimum: 0, maximum: 100 }) }),
  branch: Type.String(),
  startedAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  durationMs: Nullable(Type.Integer()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  sql: Type.Optional(
    Type.Object({
      sql: Type.String(),
      params: Type.Array(Type.Unknown()),
      dialect: Type.String({ description: 'duckdb (local emulator), snowflake or databricks' }),
      dataSource: Type.String(),
    }),
  ),
  result: Type.Optional(
    Type.Object({
      columns: Type.Array(ResultColumnInfo),
      data: Type.Array(Type.Record(Type.String(), Type.Unknown())),
      rowCount: Type.Integer(),
      total: Nullable(Type.Integer({ description: 'Rows without limit, when the query asked for `total`' })),
    }),
  ),
});
export type QueryRun = Static<typeof QueryRun>;

export const StartQueryRunInput = Type.Object(
  {
    query: FreeForm('A query in the REST format'),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Default: the deploy branch' })),
    workingEdits: Type.Optional(Type.Boolean({ description: "Include the branch's uncommitted edits (default true off the deploy branch)" })),
  },
  { additionalProperties: false },
);
export type StartQueryRunInput = Static<typeof StartQueryRunInput>;

const RunParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), runId: Type.String({ minLength: 1, maxLength: 64 }) });

export const startQueryRun = defineRoute({
  method: 'POST',
  path: `${D}/query-runs`,
  operationId: 'startQueryRun',
  tag: PREVIEW_TAG,
  summary: 'Run a query for the data preview',
  description: 'Answers 202 at once; poll the run (optionally waiting) for progress and the result. Runs and results are kept in memory for 10 minutes.',
  params: DeployParams,
  body: StartQueryRunInput,
  status: 202,
  response: QueryRun,
});

export const getQueryRun = defineRoute({
  method: 'GET',
  path: `${D}/query-runs/{runId}`,
  operationId: 'getQueryRun',
  tag: PREVIEW_TAG,
  summary: 'A query run: progress, then the result or why it failed',
  params: RunParams,
  query: Type.Object({ waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Wait up to this long for the run to finish' })) }),
  response: QueryRun,
});

export const cancelQueryRun = defineRoute({
  method: 'POST',
  path: `${D}/query-runs/{runId}/cancel`,
  operationId: 'cancelQueryRun',
  tag: PREVIEW_TAG,
  summary: 'Cancel a running query (the engine stops it)',
  params: RunParams,
  response: QueryRun,
});

// ---- emulator tables ---------------------------------------------------------------------------

export const TableColumn = Type.Object({ name: Type.String(), type: Type.String({ description: "The data source's type name (e.g. NUMBER(38,0), VARCHAR)" }) });
export const EmulatorTable = Type.Object({
  schema: Type.String(),
  name: Type.String(),
  columns: Type.Array(TableColumn),
  rowCount: Type.Integer(),
});
export type EmulatorTable = Static<typeof EmulatorTable>;

const DataSourceParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), dataSource: Type.String({ minLength: 1, maxLength: 64 }) });
export const TABLE_FILE_FORMATS = ['csv', 'parquet'] as const;
/** Files are sent base64-encoded in JSON; this many bytes once decoded. */
export const MAX_TABLE_FILE_BYTES = 20 * 1024 * 1024;

export const listEmulatorTables = defineRoute({
  method: 'GET',
  path: `${D}/data-sources/{dataSource}/tables`,
  operationId: 'listEmulatorTables',
  tag: TABLES_TAG,
  summary: "The tables of a local emulator data source, with their columns and row counts",
  params: DataSourceParams,
  response: Type.Object({ items: Type.Array(EmulatorTable) }),
});

export const inspectTableFile = defineRoute({
  method: 'POST',
  path: `${D}/data-sources/{dataSource}/table-files`,
  operationId: 'inspectTableFile',
  tag: TABLES_TAG,
  summary: 'Upload a CSV or Parquet file and see the columns and types it would import as',
  description: 'Nothing is imported yet: the file is kept for 30 minutes under the returned `fileId` for `importTable`.',
  params: DataSourceParams,
  body: Type.Object(
    {
      fileName: Type.String({ minLength: 1, maxLength: 255 }),
      format: Type.Optional(Type.Enum([...TABLE_FILE_FORMATS], { description: 'Default: from the file name' })),
      contentBase64: Type.String({ maxLength: Math.ceil(MAX_TABLE_FILE_BYTES / 3) * 4 + 4 }),
    },
    { additionalProperties: false },
  ),
  status: 201,
  response: Type.Object({
    fileId: Type.String(),
    fileName: Type.String(),
    format: Type.Enum([...TABLE_FILE_FORMATS]),
    columns: Type.Array(TableColumn),
    sampleRows: Type.Array(Type.Array(Type.Unknown())),
    rowCount: Type.Integer(),
    suggestedName: Type.String(),
    expiresAt: Timestamp,
  }),
});

export const importTable = defineRoute({
  method: 'POST',
  path: `${D}/data-sources/{dataSource}/tables`,
  operationId: 'importTable',
  tag: TABLES_TAG,
  summary: 'Import an inspected file as a table of the local emulator (all rows or none)',
  params: DataSourceParams,
  body: Type.Object(
    {
      fileId: Type.String({ minLength: 1, maxLength: 64 }),
      schema: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z_][A-Za-z0-9_$]*$' }),
      name: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z_][A-Za-z0-9_$]*$' }),
      replace: Type.Optional(Type.Boolean({ description: 'Replace a table of that name (default false: 409)' })),
    },
    { additionalProperties: false },
  ),
  status: 201,
  response: EmulatorTable,
});

export const DataSourceSchemas = Type.Object({
  dataSource: Type.String(),
  kind: Type.Enum(['warehouse', 'lakehouse']),
  engine: Type.String({ description: '`local warehouse`, `local lakehouse`, `snowflake` or `databricks`' }),
  catalog: Nullable(Type.String({ description: 'The database (warehouse) or catalog (lakehouse) the schemas are in; null when none is known yet' })),
  catalogs: Type.Array(Type.String(), { description: 'The databases (warehouse) or catalogs (lakehouse) the credential may use' }),
  schemas: Type.Array(Type.String(), { description: 'The schemas of `catalog` the credential may use, by name' }),
});
export type DataSourceSchemas = Static<typeof DataSourceSchemas>;

export const listDataSourceSchemas = defineRoute({
  method: 'GET',
  path: `${D}/data-sources/{dataSource}/schemas`,
  operationId: 'listDataSourceSchemas',
  tag: TABLES_TAG,
  summary: 'The databases or catalogs, and the schemas, that exist in a data source (to choose a push or publication target)',
  description:
    'Drydock addition (the platform API has no such operation): asks the data source itself — `SHOW DATABASES` and `SHOW SCHEMAS IN DATABASE` ' +
    'on Snowflake or the local warehouse, `SHOW CATALOGS` and `SHOW SCHEMAS IN` on Databricks or the local lakehouse — as its configured ' +
    "credential, so only what that credential may use is listed. `catalog` defaults to the data source's database (`CUBEJS_DB_NAME`) or " +
    'catalog (`CUBEJS_DB_DATABRICKS_CATALOG`). Needs SchemaUpdate. An unreachable or refusing data source answers 502 (404 for an ' +
    'unknown database or catalog) with the connector\'s code.',
  params: DataSourceParams,
  query: Type.Object({ catalog: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The database or catalog to list schemas of' })) }),
  response: DataSourceSchemas,
});

/** Rows a vendor SQL answer carries at most (the rest is cut and `truncated` says so). */
export const MAX_SQL_ROWS = 10_000;

export const runDataSourceSql = defineRoute({
  method: 'POST',
  path: `${D}/data-sources/{dataSource}/sql`,
  operationId: 'runDataSourceSql',
  tag: TABLES_TAG,
  summary: "Run one SELECT on a data source in its vendor's SQL, as its users would",
  description:
    'On the local warehouse: `SELECT * FROM SEMANTIC_VIEW(db.schema.view METRICS ... DIMENSIONS ... WHERE ...)` over a pushed semantic view, or a SELECT over its tables. ' +
    'On the local lakehouse: `SELECT dim, MEASURE(m) FROM catalog.schema.view GROUP BY ALL` over a published metric view, or a SELECT over its tables. ' +
    'On a real Snowflake or Databricks data source the statement is sent there. Only SELECT statements; `?` binds from `params`.',
  params: DataSourceParams,
  body: Type.Object(
    {
      sql: Type.String({ minLength: 1, maxLength: 100_000 }),
      params: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), { maxItems: 100 })),
    },
    { additionalProperties: false },
  ),
  response: Type.Object({
    dataSource: Type.String(),
    engine: Type.String({ description: 'local warehouse, local lakehouse, snowflake or databricks' }),
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    rowCount: Type.Integer(),
    truncated: Type.Boolean(),
    durationMs: Type.Integer(),
  }),
});

export const queryRoutes = {
  ...Object.fromEntries(Object.entries(deploymentDataApi).map(([k, v]) => [`dataApi_${k}`, v])),
  ...Object.fromEntries(Object.entries(devModeDataApi).map(([k, v]) => [`devModeDataApi_${k}`, v])),
  startQueryRun,
  getQueryRun,
  runDataSourceSql,
  cancelQueryRun,
  listEmulatorTables,
  inspectTableFile,
  importTable,
  listDataSourceSchemas,
};
