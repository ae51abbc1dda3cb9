/**
 * Messages between the desktop app's main process and the service process it supervises
 * (`src-main/service-process.ts`, started as an Electron utility process, or with
 * `child_process.fork` in tests). Plain data, so any message channel carries them.
 */

import type { SecretsBackend } from '../secrets';

/** How the service process starts its service. */
export interface ServiceProcessOptions {
  dataDir: string;
  secrets: SecretsBackend;
  /** Port to listen on (0: any); a restarted service asks for its previous port, to keep its origin. */
  port: number;
  rendererDir: string | null;
  corsOrigins: string[];
}

/** A workspace session of the admin user for the window (its token never leaves memory). */
export interface DesktopSession {
  token: string;
  /** ISO-8601. */
  expiresAt: string;
}

export type ParentMessage =
  | { type: 'start'; options: ServiceProcessOptions }
  /** A fresh session (the previous one is revoked). */
  | { type: 'session'; requestId: number }
  /** Finish in-flight requests, hand running jobs back, close the database, exit 0. */
  | { type: 'stop' };

export type ChildMessage =
  | { type: 'ready'; url: string; session: DesktopSession }
  | { type: 'session'; requestId: number; session: DesktopSession }
  | { type: 'session-failed'; requestId: number; message: string }
  /** The service could not start; `retry: false` when starting again cannot help (a database from a newer release). */
  | { type: 'start-failed'; message: string; retry: boolean };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A message from the service process, or null for anything else (it is never trusted blindly). */
export function parseChildMessage(value: unknown): ChildMessage | null {
  if (!isObject(value) || typeof value.type !== 'string') return null;
  const session = (s: unknown): s is DesktopSession => isObject(s) && typeof s.token === 'string' && typeof s.expiresAt === 'string';
  switch (value.type) {
    case 'ready':
      return typeof value.url === 'string' && session(value.session) ? { type: 'ready', url: value.url, session: value.session } : null;
    case 'session':
      return typeof value.requestId === 'number' && session(value.session) ? { type: 'session', requestId: value.requestId, session: value.session } : null;
    case 'session-failed':
      return typeof value.requestId === 'number' ? { type: 'session-failed', requestId: value.requestId, message: String(value.message) } : null;
    case 'start-failed':
      return { type: 'start-failed', message: String(value.message), retry: value.retry !== false };
    default:
      return null;
  }
}

export function parseParentMessage(value: unknown): ParentMessage | null {
  if (!isObject(value) || typeof value.type !== 'string') return null;
  switch (value.type) {
    case 'start':
      return isObject(value.options) ? { type: 'start', options: value.options as unknown as ServiceProcessOptions } : null;
    case 'session':
      return typeof value.requestId === 'number' ? { type: 'session', requestId: value.requestId } : null;
    case 'stop':
      return { type: 'stop' };
    default:
      return null;
  }
}
