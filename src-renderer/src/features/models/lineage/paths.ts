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
