// Facts about one diagnostic the Models screen shows in several places (the Problems panel, the file
// tree, the service check's comparison).
import type { ModelDiagnostic } from '../../../../src-shared/api/data-model';

/** A diagnostic as the editor's compiler reports it: an analyzer's finding may name the view's own file. */
export type ShownDiagnostic = ModelDiagnostic & { viewFile?: string };

/** Which analyzer a finding comes from, if any: they are warnings about later pushes and publications. */
export function analyzerOf(d: Pick<ModelDiagnostic, 'code' | 'reason'>): 'push' | 'publish' | null {
  const code = d.code;
  if (code === 'MODEL_NOT_PUSHABLE' || code.startsWith('MODEL_PUSH_')) return 'push';
  if (code === 'MODEL_NOT_PUBLISHABLE' || code.startsWith('MODEL_PUBLISH_') || ['MODEL_MEMBER_WITHHELD', 'MODEL_METADATA_NOT_REPRESENTABLE', 'MODEL_VIEW_JOIN_NOT_REPRESENTABLE'].includes(code)) {
    return 'publish';
  }
  return null;
}

/**
 * The files a diagnostic marks in the tree: where it is, and the view it is about when that is
 * defined elsewhere (issue 24: the sample's warning on `order_funnel` is located in `orders.yml`).
 */
export function filesOf(d: ShownDiagnostic): string[] {
  return d.viewFile && d.viewFile !== d.file ? [d.file, d.viewFile] : [d.file];
}

export interface Counts {
  errors: number;
  warnings: number;
}

/** Errors and warnings per file, each diagnostic counted once in every file it marks. */
export function countsByFile(diagnostics: readonly ShownDiagnostic[]): Map<string, Counts> {
  const counts = new Map<string, Counts>();
  for (const d of diagnostics) {
    if (d.severity === 'info') continue;
    for (const file of filesOf(d)) {
      const c = counts.get(file) ?? { errors: 0, warnings: 0 };
      if (d.severity === 'error') c.errors++;
      else c.warnings++;
      counts.set(file, c);
    }
  }
  return counts;
}

export const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);
