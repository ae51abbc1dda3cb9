import { Type, type Static, type TSchema } from 'typebox';
import { defineRoute, OWNERSHIP_RULE, Page, PageQuery, Timestamp } from './contract';
import { ETAG_RULE, IF_MATCH_RULE } from './preconditions';

// ---- schema helpers of the workspace areas -------------------------------------------------------

/**
 * `T` or JSON null, as a JSON Schema type array (`type: ['string', 'null']`). Unlike an `anyOf`
 * union this survives the server's type coercion: ajv never turns a null into `0` or `""` when
 * `null` is one of the listed types.
 */
export function OrNull<T extends TSchema>(schema: T) {
  const source = schema as unknown as { type?: unknown; enum?: unknown[] };
  if (typeof source.type !== 'string') throw new Error('OrNull needs a schema with a single `type`.');
  return Type.Unsafe<Static<T> | null>({
    ...(schema as object),
    type: [source.type, 'null'],
    ...(source.enum ? { enum: [...source.enum, null] } : {}),
  });
}

/** A string enum as a plain `enum` keyword (readable in OpenAPI, nullable with `OrNull`). */
export function StringEnum<const V extends readonly string[]>(values: V, options: { description?: string; default?: V[number] } = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/** A genuinely free-form JSON object. */
export const FreeForm = (description?: string) =>
  Type.Object({}, { additionalProperties: true, ...(description ? { description } : {}) });

export const UserRef = Type.Object(
  { id: Type.Integer(), name: Type.String(), email: Type.String() },
  { description: 'A user of the tenant' },
);
export type UserRef = Static<typeof UserRef>;

export const WorkbookParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1 }),
  workbookId: Type.Integer({ minimum: 1 }),
});

// ---- dashboard shapes (spec: "Resources and their fields") ---------------------------------------

/** Every shape of a request is closed: a key it does not describe is refused (src-shared/api/unknown-fields.ts). */
const closed = { additionalProperties: false } as const;
const optionalString = () => Type.Optional(OrNull(Type.String()));
const optionalInteger = () => Type.Optional(OrNull(Type.Integer()));

const BreakpointIntegers = Type.Object(
  {
    lg: optionalInteger(),
    md: optionalInteger(),
    sm: optionalInteger(),
    xs: optionalInteger(),
    xxs: optionalInteger(),
  },
  closed,
);

export const DashboardLayout = Type.Object(
  {
    breakpoints: Type.Optional(BreakpointIntegers),
    cols: Type.Optional(BreakpointIntegers),
    containerPadding: Type.Optional(OrNull(Type.Array(Type.Integer()))),
    margin: Type.Optional(OrNull(Type.Array(Type.Integer()))),
    rowHeight: optionalInteger(),
  },
  { ...closed, description: 'Grid of a CLASSIC dashboard' },
);
export type DashboardLayout = Static<typeof DashboardLayout>;

const AppManifest = Type.Object(
  {
    dependencies: Type.Optional(OrNull(Type.Record(Type.String(), Type.String()))),
    version: optionalInteger(),
  },
  closed,
);

const appSourceFields = () => ({
  entry: Type.Optional(OrNull(Type.String({ maxLength: 255 }))),
  files: Type.Optional(OrNull(Type.Record(Type.String(), Type.String()))),
  html: optionalString(),
  manifest: Type.Optional(OrNull(AppManifest)),
});
export const DashboardAppSource = Type.Object(appSourceFields(), { ...closed, description: 'Authored files of an APP dashboard' });
export const DashboardAppSourceInput = Type.Object(appSourceFields(), { ...closed, description: 'Authored files of an APP dashboard' });
export type DashboardAppSource = Static<typeof DashboardAppSource>;

const ThemeBorder = Type.Object({ color: optionalString(), radius: optionalString(), style: optionalString(), width: optionalString() }, closed);
const ThemeTitle = Type.Object({ color: optionalString(), fontFamily: optionalString(), fontSize: optionalString(), fontWeight: optionalString() }, closed);
const ThemeText = Type.Object({ codeFontFamily: optionalString(), color: optionalString(), fontFamily: optionalString(), secondaryColor: optionalString() }, closed);

export const DashboardTheme = Type.Object(
  {
    backgroundColor: optionalString(),
    fontFamily: optionalString(),
    primaryColor: optionalString(),
    themeId: optionalString(),
    dashboard: Type.Optional(OrNull(Type.Object({ backgroundColor: optionalString(), padding: optionalString() }, closed))),
    controls: Type.Optional(
      OrNull(
        Type.Object({
          backgroundColor: optionalString(),
          padding: optionalString(),
          border: Type.Optional(OrNull(ThemeBorder)),
          title: Type.Optional(OrNull(ThemeTitle)),
        }, closed),
      ),
    ),
    widgets: Type.Optional(
      OrNull(
        Type.Object({
          backgroundColor: optionalString(),
          margin: optionalString(),
          padding: optionalString(),
          border: Type.Optional(OrNull(ThemeBorder)),
          text: Type.Optional(OrNull(ThemeText)),
          title: Type.Optional(OrNull(ThemeTitle)),
        }, closed),
      ),
    ),
  },
  { ...closed, description: 'Theme of a dashboard (request shape)' },
);
export type DashboardTheme = Static<typeof DashboardTheme>;

export const WIDGET_TYPES = ['CHART', 'TEXT', 'FILTER', 'AI', 'TIME_GRAIN', 'FIELD', 'PARENT', 'SPACER', 'DIVIDER', 'CONTAINER'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
/** Accepted on input and healed into CONTAINER with `config.layout: "tabs"`; never advertised or returned. */
export const LEGACY_TABS_CONTAINER = 'TABS_CONTAINER';
export const WIDGET_ID_MAX_LENGTH = 128;

export const WidgetPosition = Type.Object(
  {
    x: Type.Integer({ minimum: 0 }),
    y: Type.Integer({ minimum: 0 }),
    w: Type.Integer({ minimum: 0 }),
    h: Type.Integer({ minimum: 0 }),
  },
  closed,
);
export type WidgetPosition = Static<typeof WidgetPosition>;

const ResponsiveLayouts = Type.Object(
  {
    lg: Type.Optional(OrNull(WidgetPosition)),
    md: Type.Optional(OrNull(WidgetPosition)),
    sm: Type.Optional(OrNull(WidgetPosition)),
    xs: Type.Optional(OrNull(WidgetPosition)),
    xxs: Type.Optional(OrNull(WidgetPosition)),
  },
  closed,
);

const WidgetTypeSchema = StringEnum(WIDGET_TYPES, {
  description: 'A CONTAINER whose `config.layout` is `tabs` is a tabbed container.',
});
const widgetFields = () => ({
  type: WidgetTypeSchema,
  position: WidgetPosition,
  responsiveLayouts: Type.Optional(OrNull(ResponsiveLayouts)),
  config: Type.Optional(OrNull(FreeForm('Widget configuration'))),
  style: Type.Optional(OrNull(FreeForm('Widget style'))),
});
const WidgetId = Type.String({ minLength: 1, maxLength: WIDGET_ID_MAX_LENGTH });

export const DashboardWidget = Type.Object({ id: Type.String(), ...widgetFields() }, closed);
export type DashboardWidget = Static<typeof DashboardWidget>;

export const DashboardWidgetDraftInput = Type.Object(
  {
    id: Type.Optional(OrNull({ ...WidgetId, description: 'Assigned by the server when omitted' } as typeof WidgetId)),
    ...widgetFields(),
  },
  closed,
);
export type DashboardWidgetDraftInput = Static<typeof DashboardWidgetDraftInput>;

/** A widget of a dashboard being created or published: every widget needs its id. */
export const DashboardWidgetInput = Type.Object({ id: WidgetId, ...widgetFields() }, closed);

const configFields = () => ({
  title: optionalString(),
  description: optionalString(),
  kind: Type.Optional(OrNull(StringEnum(['CLASSIC', 'APP'] as const, { description: 'CLASSIC is a widget document; APP is made of authored files' }))),
  layout: Type.Optional(OrNull(DashboardLayout)),
  settings: Type.Optional(OrNull(FreeForm('Dashboard settings'))),
});

export const DashboardConfig = Type.Object(
  {
    ...configFields(),
    app: Type.Optional(OrNull(DashboardAppSource)),
    theme: Type.Optional(OrNull(FreeForm('Dashboard theme'))),
    widgets: Type.Optional(OrNull(Type.Array(DashboardWidget))),
  },
  { ...closed, description: 'A dashboard configuration' },
);
export type DashboardConfig = Static<typeof DashboardConfig>;

export const DashboardConfigDraftInput = Type.Object(
  {
    ...configFields(),
    app: Type.Optional(OrNull(DashboardAppSourceInput)),
    theme: Type.Optional(OrNull(DashboardTheme)),
    widgets: Type.Optional(OrNull(Type.Array(DashboardWidgetDraftInput))),
  },
  { ...closed, description: 'A draft dashboard configuration; widgets without an id get one from the server' },
);
export type DashboardConfigDraftInput = Static<typeof DashboardConfigDraftInput>;

export const DashboardConfigInput = Type.Object(
  {
    ...configFields(),
    app: Type.Optional(OrNull(DashboardAppSourceInput)),
    theme: Type.Optional(OrNull(DashboardTheme)),
    widgets: Type.Optional(OrNull(Type.Array(DashboardWidgetInput))),
  },
  { ...closed, description: 'A dashboard configuration to create or publish; every widget carries its id' },
);
export type DashboardConfigInput = Static<typeof DashboardConfigInput>;

export const WorkbookDashboard = Type.Object({
  dashboardDraft: OrNull(DashboardConfig),
  dashboardPublished: OrNull(DashboardConfig),
});
export type WorkbookDashboard = Static<typeof WorkbookDashboard>;

export const WorkbookDashboardInput = Type.Object(
  { dashboardDraft: Type.Optional(OrNull(DashboardConfigDraftInput)) },
  { ...closed, description: '`dashboardPublished` is response-only: publish with POST …/publish' },
);
export type WorkbookDashboardInput = Static<typeof WorkbookDashboardInput>;

// ---- workbook records ---------------------------------------------------------------------------

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,127}$';
const Slug = Type.String({ pattern: SLUG_PATTERN, description: 'Lowercase letters, digits and dashes; unique in the deployment' });
const WorkbookName = Type.String({ minLength: 1, maxLength: 255 });

export const WorkbookPromotionSummary = Type.Object(
  {
    promotedFrom: OrNull(
      Type.Object({
        deploymentId: Type.Integer(),
        workbookId: OrNull(Type.Integer()),
        promotionId: Type.Integer(),
        promotedAt: Timestamp,
      }),
    ),
    destinationCount: Type.Integer({ description: 'Distinct workbooks this one has been promoted to' }),
    lastPromotedAt: Timestamp,
  },
  { description: 'Null on a workbook never promoted nor promoted to' },
);
export type WorkbookPromotionSummary = Static<typeof WorkbookPromotionSummary>;

const workbookFields = () => ({
  id: Type.Integer(),
  deploymentId: Type.Integer(),
  slug: Type.String(),
  publicId: Type.String({ description: 'Public id of the workbook’s dashboard (notifications, embedding)' }),
  name: Type.String(),
  description: OrNull(Type.String()),
  folderId: OrNull(Type.Integer()),
  folderPath: Type.String({ description: 'Slash-separated folder names from the root, `/` at the root' }),
  shared: Type.Boolean({ description: 'Visible to everyone with read access; otherwise only to its owner and admins' }),
  user: OrNull(UserRef),
  promotion: OrNull(WorkbookPromotionSummary),
  canManage: Type.Boolean({ description: 'The caller owns the workbook or is an admin' }),
  publishedAt: OrNull(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const Workbook = Type.Object(workbookFields());
export type Workbook = Static<typeof Workbook>;

export const WorkbookDetail = Type.Object({
  ...workbookFields(),
  dashboardDraft: OrNull(DashboardConfig),
  dashboardPublished: OrNull(DashboardConfig),
});
export type WorkbookDetail = Static<typeof WorkbookDetail>;

// ---- routes -------------------------------------------------------------------------------------

const TAG = 'Workbooks';
const D = '/api/v1/deployments/{deploymentId}';

export const listWorkbooks = defineRoute({
  method: 'GET',
  path: `${D}/workbooks`,
  operationId: 'listWorkbooks',
  tag: TAG,
  summary: 'Workbooks of a deployment the caller can see',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  query: Type.Object({
    ...PageQuery,
    folderId: Type.Optional(Type.Integer({ minimum: 0, description: 'Only workbooks directly in this folder (0 = the root)' })),
    search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive match on name or slug' })),
  }),
  response: Page(Workbook),
});

export const createWorkbook = defineRoute({
  method: 'POST',
  path: `${D}/workbooks`,
  operationId: 'createWorkbook',
  tag: TAG,
  summary: 'Create a workbook',
  description: 'A dashboard given here must carry an id on every widget.',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  body: Type.Object({
    name: WorkbookName,
    slug: Type.Optional(Slug),
    description: Type.Optional(OrNull(Type.String({ maxLength: 10_000 }))),
    folderId: Type.Optional(OrNull(Type.Integer({ minimum: 1 }))),
    shared: Type.Optional(Type.Boolean({ default: true })),
    dashboardDraft: Type.Optional(OrNull(DashboardConfigInput)),
  }, closed),
  status: 201,
  response: WorkbookDetail,
});

export const getWorkbook = defineRoute({
  method: 'GET',
  path: `${D}/workbooks/{workbookId}`,
  operationId: 'getWorkbook',
  tag: TAG,
  summary: 'A workbook with its draft and published dashboards',
  description: ETAG_RULE,
  params: WorkbookParams,
  response: WorkbookDetail,
});

export const deleteWorkbook = defineRoute({
  method: 'DELETE',
  path: `${D}/workbooks/{workbookId}`,
  operationId: 'deleteWorkbook',
  tag: TAG,
  summary: 'Delete a workbook (needs manage access: owner or admin)',
  description: IF_MATCH_RULE,
  params: WorkbookParams,
  status: 204,
  response: Type.Null(),
});

export const upsertWorkbookBySlug = defineRoute({
  method: 'PUT',
  path: `${D}/workbooks/by-slug/{slug}`,
  operationId: 'upsertWorkbookBySlug',
  tag: TAG,
  summary: 'Create or update the workbook with this slug',
  description: `Fields left out keep their value on update. A dashboard given here must carry an id on every widget. ${OWNERSHIP_RULE} ${IF_MATCH_RULE}`,
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), slug: Slug }),
  body: Type.Object({
    name: WorkbookName,
    description: Type.Optional(OrNull(Type.String({ maxLength: 10_000 }))),
    folderId: Type.Optional(OrNull(Type.Integer({ minimum: 1 }))),
    shared: Type.Optional(Type.Boolean()),
    dashboardDraft: Type.Optional(OrNull(DashboardConfigInput)),
  }, closed),
  response: Type.Object({ ...WorkbookDetail.properties, created: Type.Boolean() }),
});

export const duplicateWorkbook = defineRoute({
  method: 'POST',
  path: `${D}/workbooks/{workbookId}/duplicate`,
  operationId: 'duplicateWorkbook',
  tag: TAG,
  summary: 'Copy a workbook and its dashboards; the caller owns the copy',
  params: WorkbookParams,
  body: Type.Object({
    shared: Type.Optional(Type.Boolean({ description: 'Whether the copy is shared (default: a private copy)' })),
    name: Type.Optional(WorkbookName),
  }, closed),
  bodyOptional: true,
  status: 201,
  response: WorkbookDetail,
});

export const updateWorkbookDashboard = defineRoute({
  method: 'PUT',
  path: `${D}/workbooks/{workbookId}/dashboard`,
  operationId: 'updateWorkbookDashboard',
  tag: TAG,
  summary: 'Save the draft dashboard of a workbook',
  description:
    'Widgets without an id get one. A tabbed container is a CONTAINER with `config.layout: "tabs"`. ' +
    'Without a body (or without `dashboardDraft`) nothing changes; `dashboardDraft: null` clears the draft. ' +
    'A key the dashboard shapes do not describe, at any depth (free-form `config`, `style` and `settings` aside), answers 400 ' +
    '`UNKNOWN_FIELD` naming each key in `errors[].pointer`; nothing is saved. ' +
    `${OWNERSHIP_RULE} The workbook's version (its ETag, as \`getWorkbook\` answers it) covers the dashboards: ${IF_MATCH_RULE}`,
  params: WorkbookParams,
  body: WorkbookDashboardInput,
  bodyOptional: true,
  response: WorkbookDashboard,
});

export const publishWorkbookDashboard = defineRoute({
  method: 'POST',
  path: `${D}/workbooks/{workbookId}/publish`,
  operationId: 'publishWorkbookDashboard',
  tag: TAG,
  summary: 'Publish the saved draft, or an explicit config (which then also becomes the draft)',
  description: `${OWNERSHIP_RULE} ${IF_MATCH_RULE}`,
  params: WorkbookParams,
  body: Type.Object({ config: Type.Optional(DashboardConfigInput) }, closed),
  bodyOptional: true,
  response: WorkbookDashboard,
});

export const workbooksRoutes = {
  listWorkbooks,
  createWorkbook,
  getWorkbook,
  deleteWorkbook,
  upsertWorkbookBySlug,
  duplicateWorkbook,
  updateWorkbookDashboard,
  publishWorkbookDashboard,
};
