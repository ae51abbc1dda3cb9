import { create } from 'zustand';
import { ApiProblem, createClient, type Client } from '../../../src-shared/api/client';
import { getMe } from '../../../src-shared/api/identity';
import { exchangeLoginCode } from '../../../src-shared/api/system';
import type { Static } from 'typebox';
import type { Me } from '../../../src-shared/api/identity';
import { apiPrefix } from './endpoint';

export type CurrentUser = Static<typeof Me>;

/** Browser sessions are tab-scoped: sessionStorage, gone when the tab closes. */
const STORAGE_KEY = 'drydock.session';

interface StoredSession {
  /** `Authorization` header value: `Bearer <session token>` or `Api-Key <key>`. */
  auth: string;
  expiresAt: string | null;
}

type Status = 'starting' | 'signed-out' | 'ready';

/** A login link that did not open a session, and where a new one comes from (issue 24). */
export interface LoginFailure {
  reason: 'used' | 'expired' | 'unknown';
  detail: string;
  /** The command that prints a new link for this very service, as it was started. */
  command: string | null;
  /** Where else a new link comes from (the desktop app's menu). */
  hint: string | null;
}

interface SessionState {
  status: Status;
  mode: 'desktop' | 'browser';
  user: CurrentUser | null;
  /** Why the user sees the sign-in screen (ended session…). */
  notice: string | null;
  /** The login link of the address did not work: why, and how to get a new one. */
  loginFailure: LoginFailure | null;
  start(): Promise<void>;
  signInWithApiKey(key: string): Promise<void>;
  signOut(notice?: string): void;
}

let authHeader: string | null = null;
let baseUrl = '';

const bridge = () => window.drydock;

/** The local service's `Authorization` value (the live-events stream sends it). */
export const currentAuthorization = (): string | null => authHeader;

async function renewDesktopConnection(): Promise<boolean> {
  const desktop = bridge();
  if (!desktop) return false;
  const before = authHeader;
  const connection = await desktop.getConnection();
  baseUrl = connection.baseUrl;
  authHeader = `Bearer ${connection.token}`;
  return authHeader !== before;
}

const onUnauthorized = async (): Promise<boolean> => {
  if (bridge()) return renewDesktopConnection().catch(() => false);
  if (authHeader && useSession.getState().status === 'ready') useSession.getState().signOut('Your session has ended. Sign in again.');
  return false;
};

/**
 * The typed client of the screens: the service chosen in the header. Same origin in the browser;
 * the shell's URL in Electron; for a remote profile, the local service's proxy to it (which never
 * answers 401 for the remote, so a 401 here is always the end of the local session).
 */
export const api: Client = createClient({
  baseUrl: () => `${baseUrl}${apiPrefix()}`,
  auth: () => authHeader,
  fetch: (url, init) => window.fetch(url, init),
  onUnauthorized,
});

/** The local service whatever the header says: sign-in, profiles, and transfers to other profiles. */
export const localApi: Client = createClient({
  baseUrl: () => baseUrl,
  auth: () => authHeader,
  fetch: (url, init) => window.fetch(url, init),
  onUnauthorized,
});

/** A client for one profile's service through the local proxy (lists of a transfer's target). */
export function profileApi(proxyBase: string): Client {
  return createClient({ baseUrl: () => `${baseUrl}${proxyBase}`, auth: () => authHeader, fetch: (url, init) => window.fetch(url, init), onUnauthorized });
}

function readStored(): StoredSession | null {
  try {
    const parsed = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null') as StoredSession | null;
    if (!parsed || typeof parsed.auth !== 'string') return null;
    if (parsed.expiresAt && Date.parse(parsed.expiresAt) <= Date.now()) return null;
    return parsed;
  } catch {
    return null;
  }
}

function store(session: StoredSession | null): void {
  if (session) window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else window.sessionStorage.removeItem(STORAGE_KEY);
}

/** Who the credential belongs to; a service without the users area still signs in. */
async function loadUser(): Promise<CurrentUser | null> {
  try {
    return await localApi.call(getMe);
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 404) return null;
    throw error;
  }
}

/** Removes `?login=…` from the address bar so a reload or a shared URL does not carry it. */
function takeLoginCode(): string | null {
  const url = new URL(window.location.href);
  const code = url.searchParams.get('login');
  if (code === null) return null;
  url.searchParams.delete('login');
  window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
  return code;
}

type SetState = (partial: Partial<SessionState>) => void;

function loginFailureOf(error: unknown): LoginFailure {
  if (!(error instanceof ApiProblem)) return { reason: 'unknown', detail: String(error), command: null, hint: null };
  const problem: Record<string, unknown> = error.problem ?? {};
  const text = (key: string) => (typeof problem[key] === 'string' ? (problem[key] as string) : null);
  const reason = text('reason');
  return {
    reason: reason === 'used' || reason === 'expired' ? reason : 'unknown',
    // The detail names the command too; the page shows it apart, with a copy button.
    detail: error.detail.replace(/ For a new link[,:].*$/, ''),
    command: text('newLinkCommand'),
    hint: text('newLinkHint'),
  };
}

let starting: Promise<void> | null = null;

async function startSession(set: SetState, get: () => SessionState): Promise<void> {
  if (bridge()) {
    await renewDesktopConnection();
    set({ status: 'ready', user: await loadUser() });
    return;
  }
  const code = takeLoginCode();
  if (code !== null) {
    try {
      const session = await localApi.call(exchangeLoginCode, { body: { code } });
      authHeader = `Bearer ${session.token}`;
      store({ auth: authHeader, expiresAt: session.expiresAt });
      set({ status: 'ready', notice: null, loginFailure: null, user: await loadUser() });
    } catch (error) {
      authHeader = null;
      store(null);
      set({ status: 'signed-out', notice: null, loginFailure: loginFailureOf(error) });
    }
    return;
  }
  const stored = readStored();
  if (!stored) {
    set({ status: 'signed-out' });
    return;
  }
  authHeader = stored.auth;
  try {
    set({ status: 'ready', user: await loadUser() });
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 401) get().signOut('Your session has ended. Sign in again.');
    else throw error;
  }
}

export const useSession = create<SessionState>((set, get) => ({
  status: 'starting',
  mode: bridge() ? 'desktop' : 'browser',
  user: null,
  notice: null,
  loginFailure: null,

  start() {
    // Once per page load (React's StrictMode runs effects twice in development).
    starting ??= startSession(set, get);
    return starting;
  },

  async signInWithApiKey(key) {
    const trimmed = key.trim();
    if (!trimmed) throw new Error('Paste an API key.');
    const previous = authHeader;
    authHeader = `Api-Key ${trimmed}`;
    try {
      const user = await loadUser();
      store({ auth: authHeader, expiresAt: null });
      set({ status: 'ready', user, notice: null, loginFailure: null });
    } catch (error) {
      authHeader = previous;
      if (error instanceof ApiProblem && error.status === 401) throw new Error('That API key was not accepted.');
      throw error;
    }
  },

  signOut(notice) {
    authHeader = null;
    store(null);
    set({ status: 'signed-out', user: null, notice: notice ?? null, loginFailure: null });
  },
}));
