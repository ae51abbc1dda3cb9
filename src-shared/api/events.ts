/**
 * Live events (Drydock, issue 14 item 3): what changed in the service, as it changes, so screens
 * refresh without a manual reload. One operation, two forms: `Accept: text/event-stream` opens a
 * server-sent event stream; any other `Accept` answers a JSON page of the events after `since`
 * (the same events, for clients that cannot stream and for catching up).
 */
import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Timestamp } from './contract';

const TAG = 'Live Events';

const common = {
  /** `<boot>-<sequence>`: the stream's `id:` line, the value to send back as `Last-Event-ID` or `since`. */
  id: Type.String(),
  at: Timestamp,
};

export const JobEvent = Type.Object({
  ...common,
  type: Type.Literal('job'),
  deploymentId: Nullable(Type.Integer()),
  job: Type.Object({
    id: Type.String(),
    kind: Type.String(),
    status: Type.String(),
    stage: Type.String(),
    percentComplete: Type.Number(),
    errorCode: Nullable(Type.String()),
    createdBy: Nullable(Type.Integer()),
  }),
});

/** Uncommitted edits of a branch changed (saved, deleted, renamed); `sha256` is each path's new version (null: gone). */
export const FilesEvent = Type.Object({
  ...common,
  type: Type.Literal('files'),
  deploymentId: Type.Integer(),
  branch: Type.String(),
  files: Type.Array(Type.Object({ path: Type.String(), sha256: Nullable(Type.String()) })),
});

/** A branch moved (commit, merge, pull, fetch, upload), was created (`commit` set) or deleted (`commit` null). */
export const BranchEvent = Type.Object({
  ...common,
  type: Type.Literal('branch'),
  deploymentId: Type.Integer(),
  branch: Type.String(),
  commit: Nullable(Type.String()),
});

/** What the deployment knows of its upstream changed (a fetch): ahead/behind counts may differ. */
export const UpstreamEvent = Type.Object({
  ...common,
  type: Type.Literal('upstream'),
  deploymentId: Type.Integer(),
});

export const BuildEvent = Type.Object({
  ...common,
  type: Type.Literal('build'),
  deploymentId: Type.Integer(),
  buildId: Type.String(),
  branch: Type.String(),
  commit: Type.String(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('building'), Type.Literal('succeeded'), Type.Literal('failed')]),
});

/** A write through the API succeeded (any operation that is not a read): its operation and path parameters. */
export const WriteEvent = Type.Object({
  ...common,
  type: Type.Literal('write'),
  deploymentId: Nullable(Type.Integer()),
  operationId: Type.String(),
  params: Type.Record(Type.String(), Type.String()),
});

/** Events were missed (a reconnect after the service restarted or after too many events): reload what is shown. */
export const ResyncEvent = Type.Object({
  ...common,
  type: Type.Literal('resync'),
  deploymentId: Type.Null(),
});

export type BuildEventStatus = Static<typeof BuildEvent>['status'];

export const LiveEvent = Type.Union([JobEvent, FilesEvent, BranchEvent, UpstreamEvent, BuildEvent, WriteEvent, ResyncEvent]);
export type LiveEvent = Static<typeof LiveEvent>;
export type LiveEventType = LiveEvent['type'];

export const EventsPage = Type.Object({
  events: Type.Array(LiveEvent),
  /** The newest event id: pass it as `since` (or `Last-Event-ID`) to get only what follows. */
  lastEventId: Type.String(),
});
export type EventsPage = Static<typeof EventsPage>;

export const EVENTS_STREAM_RULES =
  'With `Accept: text/event-stream` the answer is a server-sent event stream (`id:`, `event:` the type, `data:` the event as JSON), ' +
  'with a comment line every 15 seconds; the credential is checked again then and the stream ends when it is no longer valid. ' +
  'On reconnect, `Last-Event-ID` (or `since`) replays the events after it; when they are no longer held (a restart, or more than ' +
  'the last 2,000 events) a `resync` event says to reload. Without that `Accept`, the answer is the JSON page of held events after ' +
  '`since` (none without it). A credential bound to one deployment (deployment token, OAuth token of a deployment) sees only that ' +
  'deployment’s events; tenant-wide writes are seen only by user credentials; a user sees the events of deployments they may read.';

export const getLiveEvents = defineRoute({
  method: 'GET',
  path: '/api/v1/events',
  operationId: 'getLiveEvents',
  tag: TAG,
  summary: 'What changed: a server-sent event stream, or the JSON page of recent events',
  description: EVENTS_STREAM_RULES,
  query: Type.Object({
    since: Type.Optional(Type.String({ maxLength: 64, description: 'Events after this id (as `Last-Event-ID`)' })),
    deploymentId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only this deployment’s events' })),
  }),
  response: EventsPage,
});

export const eventsRoutes = { getLiveEvents };
