// Where Models › Lineage lives, and which cube or view "Show lineage" means at the cursor.
import { enclosingEntity } from '../language';
import { currentPlaceOf } from '../navigation';
import { useModels } from '../store';

export const lineagePath = (deploymentId: number, name?: string) => `/models/${deploymentId}/lineage${name ? `/${encodeURIComponent(name)}` : ''}`;

/** The cube or view the cursor is in (or the open file's first). */
export function entityHere(): string | undefined {
  const place = currentPlaceOf();
  if (!place) return undefined;
  return enclosingEntity(useModels.getState().analysis.symbols, place.path, place.line)?.name;
}

/**
 * As entityHere, but when the analysis does not know the open file yet (the branch was just reloaded —
 * a live update after a push or a commit — and the worker is compiling it again) waits for it, up to
 * `timeoutMs`, instead of answering "no cube or view" and showing the whole graph.
 */
export function entityHereSettled(timeoutMs = 10_000): Promise<string | undefined> {
  const now = entityHere();
  if (now !== undefined || !currentPlaceOf()) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (name: string | undefined) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(name);
    };
    const timer = setTimeout(() => done(entityHere()), timeoutMs);
    const unsubscribe = useModels.subscribe((s, previous) => {
      if (s.analysis === previous.analysis) return;
      const name = entityHere();
      if (name !== undefined) done(name);
    });
  });
}
