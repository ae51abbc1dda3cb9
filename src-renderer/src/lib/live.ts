// The renderer's side of live events: one stream per window (started by the shell, app/live.ts),
// fanned out here to whatever screen listens. Screens say which events concern them; a `resync`
// (events were missed) concerns everyone.
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import type { LiveEvent } from '../../../src-shared/api/events';
import type { LiveStatus } from '../../../src-shared/api/live-client';

const listeners = new Set<(event: LiveEvent) => void>();

export const useLiveStatus = create<{ status: LiveStatus | 'off' }>(() => ({ status: 'off' }));

export function dispatchLiveEvent(event: LiveEvent): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      console.error('A live-event listener failed', error);
    }
  }
}

export function onLiveEvent(listener: (event: LiveEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Calls `refresh` (at most once per `delayMs`, after the burst) when an event matching `when`
 * arrives, or a resync. The latest `when` and `refresh` are used, so callers pass plain closures.
 */
export function useLiveRefresh(when: ((event: LiveEvent) => boolean) | null, refresh: () => void, delayMs = 250): void {
  const whenRef = useRef(when);
  const refreshRef = useRef(refresh);
  whenRef.current = when;
  refreshRef.current = refresh;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = onLiveEvent((event) => {
      const matches = whenRef.current;
      if (!matches || (event.type !== 'resync' && !matches(event))) return;
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        refreshRef.current();
      }, delayMs);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [delayMs]);
}

/** A write to one workbook (its dashboard, a promotion into or out of it), or a resync. */
export const liveWorkbookWrite = (deploymentId: number, workbookId: number) => (e: LiveEvent) =>
  e.type === 'write' && e.deploymentId === deploymentId && (e.params.workbookId === String(workbookId) || e.operationId === 'applyWorkbookPromotion');

/** Predicates of the common cases. */
export const liveJobOf = (deploymentId: number | null | undefined) => (e: LiveEvent) => e.type === 'job' && e.deploymentId === deploymentId;
export const liveBuildOf = (deploymentId: number | null | undefined) => (e: LiveEvent) => e.type === 'build' && e.deploymentId === deploymentId;
export const liveWriteOf = (deploymentId: number | null | undefined, match: (operationId: string) => boolean) => (e: LiveEvent) =>
  e.type === 'write' && e.deploymentId === deploymentId && match(e.operationId);
