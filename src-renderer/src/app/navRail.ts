// The app navigation as an icon rail (issue 24): more room for the work at a laptop's size. The
// choice is remembered per service profile and user; without one, a window narrower than 1200 px
// starts with the rail. Ctrl+Alt+B (⌥⌘B on macOS) toggles it anywhere.
import { useEffect } from 'react';
import { create } from 'zustand';
import { useProfile } from './profile';
import { useSession } from './session';

const NARROW = 1200;
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const NAV_RAIL_KEY = isMac ? '⌥⌘B' : 'Ctrl+Alt+B';

interface NavRailState {
  key: string | null;
  rail: boolean;
  load(key: string): void;
  toggle(): void;
}

export const useNavRail = create<NavRailState>((set, get) => ({
  key: null,
  rail: false,
  load(key) {
    if (get().key === key) return;
    let stored: string | null = null;
    try {
      stored = window.localStorage.getItem(key);
    } catch {
      // No storage: decide by the window.
    }
    set({ key, rail: stored === null ? window.innerWidth < NARROW : stored === 'rail' });
  },
  toggle() {
    const rail = !get().rail;
    set({ rail });
    const key = get().key;
    try {
      if (key) window.localStorage.setItem(key, rail ? 'rail' : 'full');
    } catch {
      // The choice lasts for this session.
    }
  },
}));

/** Loads the signed-in user's choice and binds the key; returns whether the navigation is a rail. */
export function useNavRailFor(): boolean {
  const profile = useProfile((s) => s.active);
  const userId = useSession((s) => s.user?.id ?? null);
  const load = useNavRail((s) => s.load);
  useEffect(() => load(`drydock.nav.${profile}.${userId ?? 'desktop'}`), [profile, userId, load]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = isMac ? event.metaKey : event.ctrlKey;
      if (!mod || !event.altKey || event.shiftKey || event.code !== 'KeyB' || event.defaultPrevented) return;
      event.preventDefault();
      useNavRail.getState().toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return useNavRail((s) => s.rail);
}
