// Where Models › Lineage lives, and which cube or view "Show lineage" means at the cursor.
import { enclosingEntity, enclosingEntityInText } from '../language';
import { currentPlaceOf } from '../navigation';
import { useModels } from '../store';

export const lineagePath = (deploymentId: number, name?: string) => `/models/${deploymentId}/lineage${name ? `/${encodeURIComponent(name)}` : ''}`;

/** The cube or view the cursor is in (or the open file's first), as the compiler's analysis knows it. */
export function entityHere(): string | undefined {
  const place = currentPlaceOf();
  if (!place) return undefined;
  return enclosingEntity(useModels.getState().analysis.symbols, place.path, place.line)?.name;
}

/** The cube or view the cursor is in, read from the open YAML file's text (what the user sees, unsaved edits included). */
function entityInTextHere(): string | undefined {
  const place = currentPlaceOf();
  if (!place || !/\.ya?ml$/i.test(place.path)) return undefined;
  const s = useModels.getState();
  const text = s.buffers[place.path] ?? s.saved[place.path];
  return text === undefined ? undefined : enclosingEntityInText(text, place.line)?.name;
}

/**
 * Which cube or view "Show lineage" means. The analysis answers when it knows the open file; when it
 * does not yet (the branch was just reloaded — a live update after a push or a commit — and the worker
 * is compiling it again, which takes seconds on a busy machine) a YAML file's own text answers at once;
 * only a file the text cannot answer for (JavaScript) waits for the analysis, up to `timeoutMs`,
 * instead of answering "no cube or view" and showing the whole graph.
 */
export function entityHereSettled(timeoutMs = 15_000): Promise<string | undefined> {
  const now = entityHere() ?? entityInTextHere();
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
