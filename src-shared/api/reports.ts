import { Type, type Static } from 'typebox';
import { defineRoute, OWNERSHIP_RULE, Page, PageQuery, PageWithDeprecatedCount, Timestamp } from './contract';
import { ETAG_RULE, IF_MATCH_RULE } from './preconditions';
import { FreeForm, OrNull, StringEnum, UserRef } from './workbooks';

const TAG = 'Reports';
const D = '/api/v1/deployments/{deploymentId}';

export const REPORT_TEXT_MAX = 255;
export const RESULT_CHECKSUM_MAX = 128;
export const SYNC_STATUSES = ['UP_TO_DATE', 'CHANGED', 'UNKNOWN'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];
export const REPORT_SORTS = ['name', 'createdAt', 'updatedAt', 'lastViewedAt'] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];

/** Placements list limits of one external document (spec: Limits). */
export const MAX_PLACED_EXPLORATIONS = 500;
export const MAX_DOCUMENT_PLACEMENTS = 2000;

export const ResultChecksum = Type.Object(
  { payload: Type.Optional(Type.String({ minLength: 1, maxLength: RESULT_CHECKSUM_MAX, description: 'Opaque to the server' })) },
  { additionalProperties: false, description: 'Fingerprint of the result the client placed' },
);
export type ResultChecksum = Static<typeof ResultChecksum>;

const QueryChecksum = Type.String({ minLength: 1, maxLength: 128 });

/** Where a report's result is placed in a spreadsheet (the placement and the external-document views share it). */
const PlacementLocation = {
  externalWorkbookId: Type.String(),
  host: OrNull(Type.String()),
  sheetId: OrNull(Type.String()),
  sheetName: Type.String(),
  anchorCell: Type.String(),
  workbookName: OrNull(Type.String()),
};

export const ReportPlacement = Type.Object({
  id: Type.Integer(),
  ...PlacementLocation,
  placedAt: Timestamp,
  placedByUserId: OrNull(Type.Integer()),
  refreshedAt: OrNull(Timestamp),
  refreshedByUserId: OrNull(Type.Integer()),
  resultChecksum: OrNull(ResultChecksum),
  queryChecksum: OrNull(Type.String({ description: 'Checksum of the report query the placed result came from' })),
  syncStatus: StringEnum(SYNC_STATUSES, {
    description:
      'UP_TO_DATE when the placement’s queryChecksum equals the report’s currentQueryChecksum, CHANGED when they differ, UNKNOWN when either is missing',
  }),
});
export type ReportPlacement = Static<typeof ReportPlacement>;

export const Report = Type.Object({
  id: Type.Integer(),
  deploymentId: Type.Integer(),
  publicId: Type.String(),
  name: Type.String(),
  title: OrNull(Type.String()),
  description: OrNull(Type.String()),
  folderId: OrNull(Type.Integer()),
  folderPath: Type.String(),
  query: OrNull(FreeForm('The report’s query')),
  currentQueryChecksum: OrNull(Type.String({ description: 'SHA-256 of the canonical JSON of `query`' })),
  owner: OrNull(UserRef),
  canEdit: Type.Boolean({ description: 'The caller may place and refresh the report (deployment edit)' }),
  canManage: Type.Boolean({ description: 'The caller owns the report or is an admin: may change, overwrite or delete it' }),
  placements: Type.Array(ReportPlacement),
  lastViewedAt: OrNull(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Report = Static<typeof Report>;

export const ReportsListResponse = PageWithDeprecatedCount(Report, 'ReportsListResponse', 'reports matching the filters');
export type ReportsListResponse = Static<typeof ReportsListResponse>;

export const ReportParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), reportId: Type.Integer({ minimum: 1 }) });
export const PUBLIC_ID_PATTERN = '^[A-Za-z0-9_-]{1,128}$';

const addressFields = {
  externalWorkbookId: Type.String({ minLength: 1, maxLength: 500, description: 'Id of the external document (spreadsheet)' }),
  sheetName: Type.String({ minLength: 1, maxLength: 255 }),
  anchorCell: Type.String({ minLength: 1, maxLength: 32 }),
};

export const ConnectWorkbookInput = Type.Object({
  placementId: Type.Optional(Type.Integer({ minimum: 1, description: 'Move this placement to the address given' })),
  ...addressFields,
  host: Type.Optional(OrNull(Type.String({ maxLength: 64 }))),
  sheetId: Type.Optional(OrNull(Type.String({ maxLength: 255 }))),
  workbookName: Type.Optional(OrNull(Type.String({ maxLength: 255 }))),
  resultChecksum: Type.Optional(OrNull(ResultChecksum)),
  queryChecksum: Type.Optional(OrNull({ ...QueryChecksum, description: 'Default: the report’s current query checksum' } as typeof QueryChecksum)),
  addressOnly: Type.Optional(
    Type.Boolean({ description: 'Only record the address; an existing placement keeps its stored fingerprint (checksums)' }),
  ),
}, { additionalProperties: false });
export type ConnectWorkbookInput = Static<typeof ConnectWorkbookInput>;

export const PlacementAddressQuery = Type.Object(
  {
    placementId: Type.Optional(Type.Integer({ minimum: 1 })),
    externalWorkbookId: Type.Optional(addressFields.externalWorkbookId),
    sheetName: Type.Optional(addressFields.sheetName),
    anchorCell: Type.Optional(addressFields.anchorCell),
  },
  { description: 'A placement: by `placementId`, or by `externalWorkbookId` + `sheetName` + `anchorCell`' },
);
export type PlacementAddress = Static<typeof PlacementAddressQuery>;

export const RefreshPlacementInput = Type.Object(
  {
    ...PlacementAddressQuery.properties,
    resultChecksum: Type.Optional(OrNull(ResultChecksum)),
    queryChecksum: Type.Optional(OrNull({ ...QueryChecksum, description: 'Default: the report’s current query checksum' } as typeof QueryChecksum)),
  },
  { additionalProperties: false },
);
export type RefreshPlacementInput = Static<typeof RefreshPlacementInput>;

export const ExternalDocumentPlacement = Type.Object({
  placementId: Type.Integer(),
  access: StringEnum(['GRANTED', 'DENIED'] as const),
  deploymentId: Type.Integer(),
  reportId: OrNull(Type.Integer({ description: 'Null when access is DENIED' })),
  reportPublicId: OrNull(Type.String({ description: 'Null when access is DENIED' })),
  reportName: OrNull(Type.String({ description: 'Null when access is DENIED' })),
  owner: OrNull(Type.Object({ name: Type.String(), email: Type.String() }, { description: 'Owner of the report, when resolvable' })),
  ...PlacementLocation,
  placedAt: OrNull(Timestamp),
  refreshedAt: OrNull(Timestamp),
  syncStatus: OrNull(StringEnum(SYNC_STATUSES)),
});
export type ExternalDocumentPlacement = Static<typeof ExternalDocumentPlacement>;

export const listReports = defineRoute({
  method: 'GET',
  path: `${D}/reports`,
  operationId: 'listReports',
  tag: TAG,
  summary: 'Reports of a deployment',
  description:
    'Sorted by `name` (A→Z), `createdAt`, `updatedAt` or `lastViewedAt` (newest first; never-viewed last). ' +
    'Cursor pagination is not available when sorting by `lastViewedAt`: `after` is refused (400 `CURSOR_NOT_SUPPORTED_FOR_SORT`), the whole list is returned and `first` only limits it.',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  query: Type.Object({
    ...PageQuery,
    search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive match on name or title' })),
    folderId: Type.Optional(Type.Integer({ minimum: 0, description: 'Only reports directly in this folder (0 = the root)' })),
    externalWorkbookId: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Only reports placed in this external document' })),
    sortBy: Type.Optional(StringEnum(REPORT_SORTS, { default: 'updatedAt' })),
  }),
  response: ReportsListResponse,
});

export const getReport = defineRoute({
  method: 'GET',
  path: `${D}/reports/{reportId}`,
  operationId: 'getReport',
  tag: TAG,
  summary: 'A report with its placements (records the view in `lastViewedAt`)',
  description: ETAG_RULE,
  params: ReportParams,
  response: Report,
});

export const deleteReport = defineRoute({
  method: 'DELETE',
  path: `${D}/reports/{reportId}`,
  operationId: 'deleteReport',
  tag: TAG,
  summary: 'Delete a report and its placements (owner or admin)',
  description: IF_MATCH_RULE,
  params: ReportParams,
  status: 204,
  response: Type.Null(),
});

export const upsertReportByPublicId = defineRoute({
  method: 'PUT',
  path: `${D}/reports/by-public-id/{publicId}`,
  operationId: 'upsertReportByPublicId',
  tag: TAG,
  summary: 'Create or update the report with this public id',
  description: [`Name and title are at most 255 characters. Fields left out keep their value on update. ${OWNERSHIP_RULE}`, IF_MATCH_RULE].join(' '),
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), publicId: Type.String({ pattern: PUBLIC_ID_PATTERN }) }),
  body: Type.Object({
    name: Type.String({ minLength: 1, maxLength: REPORT_TEXT_MAX }),
    title: Type.Optional(OrNull(Type.String({ maxLength: REPORT_TEXT_MAX }))),
    description: Type.Optional(OrNull(Type.String({ maxLength: 10_000 }))),
    folderId: Type.Optional(OrNull(Type.Integer({ minimum: 1 }))),
    query: Type.Optional(OrNull(FreeForm('The report’s query'))),
  }, { additionalProperties: false }),
  response: Type.Object({ ...Report.properties, created: Type.Boolean() }),
});

export const connectReportWorkbook = defineRoute({
  method: 'PUT',
  path: `${D}/reports/{reportId}/connect-workbook`,
  operationId: 'connectReportWorkbook',
  tag: TAG,
  summary: 'Record one placement of the report in an external document',
  description: 'Needs only read access to the report. With `placementId` the placement moves to the address given.',
  params: ReportParams,
  body: ConnectWorkbookInput,
  response: ReportPlacement,
});

export const disconnectReportWorkbook = defineRoute({
  method: 'DELETE',
  path: `${D}/reports/{reportId}/connect-workbook`,
  operationId: 'disconnectReportWorkbook',
  tag: TAG,
  summary: 'Remove one placement, by `placementId` or by `externalWorkbookId` + `sheetName` + `anchorCell`',
  params: ReportParams,
  query: PlacementAddressQuery,
  status: 204,
  response: Type.Null(),
});

export const refreshReportPlacement = defineRoute({
  method: 'PUT',
  path: `${D}/reports/{reportId}/refresh`,
  operationId: 'refreshReportPlacement',
  tag: TAG,
  summary: 'Record that a placement was refreshed with the report’s current query',
  params: ReportParams,
  body: RefreshPlacementInput,
  response: ReportPlacement,
});

export const listExternalDocumentPlacements = defineRoute({
  method: 'GET',
  path: '/api/v1/external-documents/{externalWorkbookId}/placements',
  operationId: 'listExternalDocumentPlacements',
  tag: 'External Documents',
  summary: 'Every placement in an external document, across deployments',
  description:
    'Entries the caller cannot read have `access: DENIED`: they keep the address, `deploymentId` and the owner’s name and ' +
    `email, while \`reportName\` is null. 422 when the document holds more than ${MAX_PLACED_EXPLORATIONS} placed explorations ` +
    `or ${MAX_DOCUMENT_PLACEMENTS} placements.`,
  params: Type.Object({ externalWorkbookId: addressFields.externalWorkbookId }),
  query: Type.Object(PageQuery),
  response: Page(ExternalDocumentPlacement),
});

export const reportsRoutes = {
  listReports,
  getReport,
  deleteReport,
  upsertReportByPublicId,
  connectReportWorkbook,
  disconnectReportWorkbook,
  refreshReportPlacement,
  listExternalDocumentPlacements,
};
