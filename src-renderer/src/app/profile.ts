import { create } from 'zustand';
import { ApiProblem } from '../../../src-shared/api/client';
import { listProfiles, LOCAL_PROFILE, profileProxyBase, testProfile, type Profile, type ProfileCheck } from '../../../src-shared/api/profiles';
import { toShownError, type ShownError } from '../lib/errors';
import { setApiPrefix } from './endpoint';
import { localApi, useSession } from './session';

/** The header's choice of service is per tab, like the session. */
const STORAGE_KEY = 'drydock.profile';

interface ProfileState {
  /** `local`, or the name of the remote profile every screen talks to. */
  active: string;
  profiles: Profile[];
  loaded: boolean;
  /** Switching: connecting to the chosen profile (reading its spec). */
  connecting: string | null;
  /** What the active profile's spec said (null for the local service). */
  check: ProfileCheck | null;
  /** Whom the active profile's credential signs in as, when the remote tells. */
  remoteUser: string | null;
  error: ShownError | null;
  load(): Promise<void>;
  select(name: string): Promise<void>;
  dismissError(): void;
}

function remember(name: string): void {
  try {
    if (name === LOCAL_PROFILE) window.sessionStorage.removeItem(STORAGE_KEY);
    else window.sessionStorage.setItem(STORAGE_KEY, name);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts until reload.
  }
}

export const useProfile = create<ProfileState>((set, get) => ({
  active: LOCAL_PROFILE,
  profiles: [],
  loaded: false,
  connecting: null,
  check: null,
  remoteUser: null,
  error: null,

  async load() {
    try {
      const page = await localApi.call(listProfiles, { query: { first: 1000 } });
      set({ profiles: page.items, loaded: true });
      // The active profile was removed elsewhere: back to the local service.
      if (get().active !== LOCAL_PROFILE && !page.items.some((p) => p.name === get().active)) await get().select(LOCAL_PROFILE);
      const stored = window.sessionStorage.getItem(STORAGE_KEY);
      if (stored && get().active === LOCAL_PROFILE && page.items.some((p) => p.name === stored)) await get().select(stored);
    } catch (error) {
      // Profiles are for admins: anyone else simply works with the local service.
      if (error instanceof ApiProblem && (error.status === 403 || error.status === 404)) set({ profiles: [], loaded: true });
      else set({ loaded: true, error: toShownError(error, 'Loading profiles') });
    }
  },

  async select(name) {
    if (name === get().active && !get().connecting) return;
    if (name === LOCAL_PROFILE) {
      setApiPrefix('');
      remember(name);
      set({ active: name, check: null, remoteUser: null, error: null, connecting: null });
      return;
    }
    set({ connecting: name, error: null });
    try {
      // Connecting reads the remote's spec: which operations it serves, which version it is.
      const { profile, remoteUser } = await localApi.call(testProfile, { params: { profileName: name } });
      set((s) => ({ profiles: s.profiles.map((p) => (p.name === name ? profile : p)) }));
      if (get().connecting !== name) return;
      const check = profile.lastCheck;
      if (!check?.ok) {
        const [code, ...rest] = (check?.error ?? '').split(': ');
        set({
          connecting: null,
          error: { title: `Could not connect to ${name}`, detail: rest.join(': ') || 'The connection test failed.', code: code || null, status: null, fields: [] },
        });
        return;
      }
      setApiPrefix(profileProxyBase(name));
      remember(name);
      set({ active: name, check, remoteUser: remoteUser?.email ?? remoteUser?.name ?? null, connecting: null });
    } catch (error) {
      set({ connecting: null, error: toShownError(error, `Connecting to ${name}`) });
    }
  },

  dismissError() {
    set({ error: null });
  },
}));

// Signing out returns to the local service: the next sign-in starts there.
useSession.subscribe((session) => {
  if (session.status === 'signed-out' && useProfile.getState().active !== LOCAL_PROFILE) {
    setApiPrefix('');
    useProfile.setState({ active: LOCAL_PROFILE, check: null, remoteUser: null, profiles: [], loaded: false });
  }
});
