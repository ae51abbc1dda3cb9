import { Type, type Static } from 'typebox';
import { defineRoute, OWNERSHIP_RULE, Page, PageQuery, Timestamp } from './contract';
import { OrNull, StringEnum, UserRef } from './workbooks';

const TAG = 'Notifications';
const D = '/api/v1/deployments/{deploymentId}';

export const FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'gt',
  'gte',
  'lt',
  'lte',
  'in_date_range',
  'not_in_date_range',
  'before_date',
  'after_date',
  'is_empty',
  'is_not_empty',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
/** Operators that test the member itself and take no values. */
export const VALUELESS_OPERATORS: readonly FilterOperator[] = ['is_empty', 'is_not_empty'];
export const TIME_GRAINS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const NOTIFICATION_FORMATS = ['PDF', 'PNG'] as const;
export const RECIPIENT_TYPES = ['EMAIL', 'USER'] as const;

export const DashboardFilter = Type.Object(
  {
    member: Type.String({ minLength: 1, maxLength: 255, description: 'Model member, e.g. `orders.status`' }),
    operator: StringEnum(FILTER_OPERATORS),
    values: Type.Optional(
      Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 1000, description: 'Required by every operator but `is_empty` and `is_not_empty`, which take none' }),
    ),
  },
  { additionalProperties: false },
);
export type DashboardFilter = Static<typeof DashboardFilter>;

export const NotificationTimeGrain = Type.Object(
  {
    widgetId: Type.String({ minLength: 1, maxLength: 128, description: 'TIME_GRAIN widget of the dashboard' }),
    granularity: StringEnum(TIME_GRAINS),
  },
  { additionalProperties: false },
);
export const NotificationMemberSwitcher = Type.Object(
  {
    widgetId: Type.String({ minLength: 1, maxLength: 128 }),
    member: Type.String({ minLength: 1, maxLength: 255, description: 'Member the switcher shows' }),
  },
  { additionalProperties: false },
);
export const NotificationAiSummary = Type.Object(
  {
    enabled: Type.Boolean(),
    instructions: Type.Optional(OrNull(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);
export const NotificationRecipientInput = Type.Object(
  {
    type: StringEnum(RECIPIENT_TYPES),
    email: Type.Optional(OrNull(Type.String({ format: 'email', maxLength: 320, description: 'For EMAIL recipients' }))),
    userId: Type.Optional(OrNull(Type.Integer({ minimum: 1, description: 'For USER recipients' }))),
  },
  { additionalProperties: false },
);
export const NotificationRecipient = Type.Object({
  type: StringEnum(RECIPIENT_TYPES),
  email: OrNull(Type.String()),
  userId: OrNull(Type.Integer()),
});
export const NotificationSchedule = Type.Object(
  {
    cron: Type.String({ minLength: 1, maxLength: 120, description: 'Five-field cron expression' }),
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' }),
  },
  { additionalProperties: false },
);

export const Notification = Type.Object({
  id: Type.Integer(),
  deploymentId: Type.Integer(),
  name: Type.String(),
  dashboardId: Type.Integer({ description: 'Workbook whose published dashboard is delivered' }),
  dashboardPublicId: Type.String(),
  schedule: NotificationSchedule,
  enabled: Type.Boolean(),
  format: StringEnum(NOTIFICATION_FORMATS),
  filters: Type.Array(Type.Object({ member: Type.String(), operator: StringEnum(FILTER_OPERATORS), values: Type.Array(Type.String()) })),
  timeGrains: Type.Array(NotificationTimeGrain),
  memberSwitchers: Type.Array(NotificationMemberSwitcher),
  notificationAiSummary: OrNull(Type.Object({ enabled: Type.Boolean(), instructions: OrNull(Type.String()) })),
  recipients: Type.Array(NotificationRecipient),
  owner: OrNull(UserRef),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Notification = Static<typeof Notification>;

const editableFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  schedule: NotificationSchedule,
  enabled: Type.Boolean(),
  format: StringEnum(NOTIFICATION_FORMATS),
  filters: Type.Array(DashboardFilter, { maxItems: 100 }),
  timeGrains: Type.Array(NotificationTimeGrain, { maxItems: 100 }),
  memberSwitchers: Type.Array(NotificationMemberSwitcher, { maxItems: 100 }),
  notificationAiSummary: OrNull(NotificationAiSummary),
  recipients: Type.Array(NotificationRecipientInput, { minItems: 1, maxItems: 500 }),
};
const dashboardRef = {
  dashboardId: Type.Optional(Type.Integer({ minimum: 1, description: 'Workbook id; give this or `dashboardPublicId`' })),
  dashboardPublicId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Workbook public id; give this or `dashboardId`' })),
};

export const NotificationCreateInput = Type.Object(
  {
    ...dashboardRef,
    name: editableFields.name,
    schedule: editableFields.schedule,
    recipients: editableFields.recipients,
    enabled: Type.Optional(editableFields.enabled),
    format: Type.Optional(editableFields.format),
    filters: Type.Optional(editableFields.filters),
    timeGrains: Type.Optional(editableFields.timeGrains),
    memberSwitchers: Type.Optional(editableFields.memberSwitchers),
    notificationAiSummary: Type.Optional(editableFields.notificationAiSummary),
  },
  { additionalProperties: false, description: 'Exactly one of `dashboardId` and `dashboardPublicId`' },
);
export type NotificationCreateInput = Static<typeof NotificationCreateInput>;

export const NotificationUpdateInput = Type.Object(
  {
    ...dashboardRef,
    name: Type.Optional(editableFields.name),
    schedule: Type.Optional(editableFields.schedule),
    recipients: Type.Optional(editableFields.recipients),
    enabled: Type.Optional(editableFields.enabled),
    format: Type.Optional(editableFields.format),
    filters: Type.Optional(editableFields.filters),
    timeGrains: Type.Optional(editableFields.timeGrains),
    memberSwitchers: Type.Optional(editableFields.memberSwitchers),
    notificationAiSummary: Type.Optional(editableFields.notificationAiSummary),
  },
  { additionalProperties: false, description: 'Fields left out keep their value; at most one of `dashboardId` and `dashboardPublicId`' },
);
export type NotificationUpdateInput = Static<typeof NotificationUpdateInput>;

const NotificationParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1 }), notificationId: Type.Integer({ minimum: 1 }) });

export const listNotifications = defineRoute({
  method: 'GET',
  path: `${D}/notifications`,
  operationId: 'listNotifications',
  tag: TAG,
  summary: 'Scheduled dashboard deliveries of a deployment',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  query: Type.Object({ ...PageQuery, dashboardId: Type.Optional(Type.Integer({ minimum: 1 })) }),
  response: Page(Notification),
});

export const createNotification = defineRoute({
  method: 'POST',
  path: `${D}/notifications`,
  operationId: 'createNotification',
  tag: TAG,
  summary: 'Schedule deliveries of a dashboard',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  body: NotificationCreateInput,
  status: 201,
  response: Notification,
});

export const getNotification = defineRoute({
  method: 'GET',
  path: `${D}/notifications/{notificationId}`,
  operationId: 'getNotification',
  tag: TAG,
  summary: 'A notification',
  params: NotificationParams,
  response: Notification,
});

export const updateNotification = defineRoute({
  method: 'PUT',
  path: `${D}/notifications/{notificationId}`,
  operationId: 'updateNotification',
  tag: TAG,
  summary: 'Change a notification',
  description: OWNERSHIP_RULE,
  params: NotificationParams,
  body: NotificationUpdateInput,
  response: Notification,
});

export const deleteNotification = defineRoute({
  method: 'DELETE',
  path: `${D}/notifications/{notificationId}`,
  operationId: 'deleteNotification',
  tag: TAG,
  summary: 'Delete a notification',
  description: OWNERSHIP_RULE,
  params: NotificationParams,
  status: 204,
  response: Type.Null(),
});

export const notificationsRoutes = { listNotifications, createNotification, getNotification, updateNotification, deleteNotification };
