import { Type, type Static } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Timestamp } from './contract';

/**
 * Dashboard exports: a workbook's published dashboard rendered to PNG or PDF by a job. The job
 * and its file live five minutes after submission; after that the status and download answer 410.
 */
const TAG = 'Dashboard Exports';
const D = '/api/v1/deployments/{deploymentId}';

export const EXPORT_FORMATS = ['png', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_LIFETIME_MS = 5 * 60 * 1000;
export const EXPORT_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING', 'COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'] as const;
export const CONTENT_TYPES: Record<ExportFormat, string> = { png: 'image/png', pdf: 'application/pdf' };

export const DashboardExportErrorCodes = {
  EXPORT_NOT_FOUND: 'EXPORT_NOT_FOUND',
  /** 410: the export's five minutes passed; its file is gone. */
  EXPORT_EXPIRED: 'EXPORT_EXPIRED',
  /** 409: the file is not rendered (yet, or the job failed). */
  EXPORT_NOT_READY: 'EXPORT_NOT_READY',
  /** 409: the workbook has no published dashboard to render. */
  DASHBOARD_NOT_PUBLISHED: 'DASHBOARD_NOT_PUBLISHED',
  /** 403: `renderAs` needs a tenant admin. */
  RENDER_AS_NOT_ALLOWED: 'RENDER_AS_NOT_ALLOWED',
  /** 403: the `renderAs` user could not open the workbook themselves (no deployment read, or not theirs and not shared). */
  RENDER_AS_NO_ACCESS: 'RENDER_AS_NO_ACCESS',
} as const;

export const StartDashboardExportInput = Type.Object(
  {
    workbookId: Type.Integer({ minimum: 1 }),
    format: Type.Enum([...EXPORT_FORMATS]),
    renderAs: Type.Optional(
      Type.Object({ userId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false, description: 'Render as this user; tenant admins only' }),
    ),
    width: Type.Optional(Type.Integer({ minimum: 480, maximum: 3840, description: 'Canvas width in pixels (PNG) or layout units (PDF); default 1280' })),
  },
  { additionalProperties: false },
);
export type StartDashboardExportInput = Static<typeof StartDashboardExportInput>;

export const DashboardExport = Type.Object({
  jobId: Type.String(),
  workflowId: Type.String(),
  status: Type.Enum([...EXPORT_STATUSES]),
  progress: Type.Object({ stage: Type.String(), percentComplete: Type.Integer({ minimum: 0, maximum: 100 }) }),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  deploymentId: Type.Integer(),
  workbookId: Type.Integer(),
  format: Type.Enum([...EXPORT_FORMATS]),
  contentType: Type.String(),
  fileName: Type.String(),
  size: Nullable(Type.Integer({ description: 'Bytes, once rendered' })),
  requestedBy: Nullable(Type.Integer()),
  renderAsUserId: Nullable(Type.Integer({ description: 'The user the dashboard is rendered as' })),
  createdAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  expiresAt: Timestamp,
  statusUrl: Type.String(),
  downloadUrl: Nullable(Type.String({ description: 'Once COMPLETED' })),
});
export type DashboardExport = Static<typeof DashboardExport>;

const JobParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), jobId: Type.String({ minLength: 1, maxLength: 64 }) });

export const startDashboardExport = defineRoute({
  method: 'POST',
  path: `${D}/dashboard-exports`,
  operationId: 'startDashboardExport',
  tag: TAG,
  summary: 'Render a published dashboard to PNG or PDF (202)',
  description:
    'Runs as the caller, who needs manage access to the workbook (its owner or an admin). `renderAs` renders as another user ' +
    'and needs a tenant admin (403 `RENDER_AS_NOT_ALLOWED`); that user must be able to open the workbook themselves — deployment read ' +
    'after their policies and groups, and the workbook theirs or shared — else 403 `RENDER_AS_NO_ACCESS`. ' +
    'A workbook without a published dashboard answers 409 `DASHBOARD_NOT_PUBLISHED`. The job and its file live 5 minutes after submission.',
  params: DeploymentParams,
  body: StartDashboardExportInput,
  status: 202,
  response: DashboardExport,
});

export const getDashboardExport = defineRoute({
  method: 'GET',
  path: `${D}/dashboard-exports/{jobId}`,
  operationId: 'getDashboardExport',
  tag: TAG,
  summary: 'Status of a dashboard export',
  description: 'Visible to who requested it and to admins. 410 `EXPORT_EXPIRED` after its 5 minutes.',
  params: JobParams,
  response: DashboardExport,
});

export const downloadDashboardExport = defineRoute({
  method: 'GET',
  path: `${D}/dashboard-exports/{jobId}/download`,
  operationId: 'downloadDashboardExport',
  tag: TAG,
  summary: 'The rendered file (image/png or application/pdf)',
  description: '409 `EXPORT_NOT_READY` before the export COMPLETED; 410 `EXPORT_EXPIRED` after its 5 minutes.',
  params: JobParams,
  produces: 'application/octet-stream',
  response: Type.String({ format: 'binary', description: 'PNG or PDF bytes; Content-Type says which' }),
});

export const cancelDashboardExport = defineRoute({
  method: 'DELETE',
  path: `${D}/dashboard-exports/{jobId}`,
  operationId: 'cancelDashboardExport',
  tag: TAG,
  summary: 'Request cancellation of a dashboard export (202)',
  description:
    'Visible to who requested it and to admins. A queued export ends CANCELLED at once; a running one stops between widget queries ' +
    'or while rendering, ends CANCELLED and leaves no file. An export that already ended is returned unchanged.',
  params: JobParams,
  status: 202,
  response: DashboardExport,
});

export const dashboardExportsRoutes = { startDashboardExport, getDashboardExport, downloadDashboardExport, cancelDashboardExport };
