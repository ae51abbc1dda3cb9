import { create } from 'zustand';
import { onServiceChange } from '../../app/endpoint';
import { navigate } from '../../app/router';
import { showToast } from '../../lib/toast';

/**
 * Long work (sync jobs, publication runs, previews) the Syncs screen is waiting on. One loop polls
 * every tracked item about once a second while any is unfinished and stops when none is, so an
 * idle screen sends nothing. The loop lives at module level: a job started here still announces
 * its end after the user has moved to another screen.
 */
export interface Announcement {
  title: string;
  body: string;
  tone: 'good' | 'bad' | 'warn' | 'info';
  /** In-app path of the finished work (the toast offers to open it). */
  path?: string;
  /** A failure's code and the job's own words, behind "Details" in the toast (a desktop notification says the plain words only). */
  details?: { code: string | null; message: string };
}

export interface TrackedWork<T> {
  /** Unique per item, e.g. `warehouse:3:<jobId>`. */
  key: string;
  /** Views listening to this group reload on each of its ticks (e.g. `warehouse:3`). */
  group: string;
  load(): Promise<T>;
  isDone(value: T): boolean;
  /** Said when the work ends (desktop notification, else toast); null to stay quiet. */
  announce(value: T): Announcement | null;
}

interface TrackerState {
  /** Bumped after every poll round of a group, and when one of its items ends. */
  ticks: Record<string, number>;
  /** Keys of unfinished items per group. */
  active: Record<string, string[]>;
}

export const POLL_INTERVAL_MS = 1000;
/** Consecutive failed polls after which an item is dropped (it was deleted, or access was lost). */
const MAX_FAILURES = 5;

export const useTracker = create<TrackerState>(() => ({ ticks: {}, active: {} }));

const tracked = new Map<string, { work: TrackedWork<unknown>; failures: number }>();
/** Items already announced, so a late duplicate `track` does not announce twice. */
const finished = new Set<string>();
let timer: ReturnType<typeof setTimeout> | null = null;

function publishActive(): void {
  const active: Record<string, string[]> = {};
  for (const [key, { work }] of tracked) (active[work.group] ??= []).push(key);
  useTracker.setState({ active });
}

function bump(groups: Iterable<string>): void {
  useTracker.setState((s) => {
    const ticks = { ...s.ticks };
    for (const group of groups) ticks[group] = (ticks[group] ?? 0) + 1;
    return { ticks };
  });
}

/** Starts watching `work` unless it is watched already or has been announced. */
export function track<T>(work: TrackedWork<T>): void {
  if (tracked.has(work.key) || finished.has(work.key)) return;
  tracked.set(work.key, { work: work as TrackedWork<unknown>, failures: 0 });
  publishActive();
  schedule();
}

/** Whether the item ended while tracked (its announcement is out). */
export const hasFinished = (key: string): boolean => finished.has(key);

function schedule(): void {
  if (timer !== null || tracked.size === 0) return;
  timer = setTimeout(() => {
    timer = null;
    void pollOnce().finally(schedule);
  }, POLL_INTERVAL_MS);
}

async function pollOnce(): Promise<void> {
  const groups = new Set<string>();
  await Promise.all(
    [...tracked.entries()].map(async ([key, entry]) => {
      groups.add(entry.work.group);
      try {
        const value = await entry.work.load();
        entry.failures = 0;
        if (!entry.work.isDone(value)) return;
        tracked.delete(key);
        finished.add(key);
        const announcement = entry.work.announce(value);
        if (announcement) void announce(announcement);
      } catch {
        entry.failures += 1;
        if (entry.failures >= MAX_FAILURES) tracked.delete(key);
      }
    }),
  );
  publishActive();
  bump(groups);
}

/** A desktop notification in the Electron shell; an in-app toast in the browser (or if the shell refuses). */
export async function announce(announcement: Announcement): Promise<void> {
  const desktop = window.drydock;
  if (desktop) {
    try {
      await desktop.notify(announcement.title, announcement.body);
      return;
    } catch {
      // Fall through to the toast.
    }
  }
  const { path } = announcement;
  showToast({
    title: announcement.title,
    body: announcement.body,
    tone: announcement.tone,
    // A failure stays a while longer, so that its details can be opened.
    ...(announcement.details ? { details: announcement.details, timeoutMs: 20_000 } : {}),
    ...(path ? { action: { label: 'Open', run: () => navigate(path) } } : {}),
  });
}

/** The tick of a group, for use as a reload key. */
export const useTick = (group: string): number => useTracker((s) => s.ticks[group] ?? 0);
/** Whether a group has unfinished tracked work. */
export const useGroupActive = (group: string): boolean => useTracker((s) => (s.active[group]?.length ?? 0) > 0);

// Another service in the header: its jobs are not this service's; stop following them (they run on).
onServiceChange(() => {
  tracked.clear();
  publishActive();
});
