// A settings form saved over a change made meanwhile (another window, a script): the service
// refused the save (409 FILE_CHANGED) and sent what it holds now. Three versions of the form meet:
// the one the form was opened on (base), the service's now (theirs) and the user's (mine). The rule
// every settings screen follows (README "Changed elsewhere"):
// - none of the form's fields changed elsewhere (only something the form does not show, e.g. the
//   setup step of a deployment): the save is re-sent at once on the new version; nothing of theirs
//   is touched because the form sends only the fields the user changed;
// - otherwise the user is shown each field that changed (base, theirs, mine) and picks: keep
//   editing (the typed values stay), take theirs (reload), or save mine — the fields the user
//   changed over theirs, their other changes kept.
// Pure: the screens hold the state; this module only compares.

/** One field of a form that changed on either side. */
export interface ConflictRow {
  key: string;
  label: string;
  /** As shown, when the form was opened / on the service now / in the form. */
  base: string;
  theirs: string;
  mine: string;
  /** Both sides changed it, to different values: saving mine overwrites theirs. */
  clash: boolean;
  /** Only the other side changed it: saving mine keeps theirs. */
  theirsOnly: boolean;
}

export interface FormComparison<F> {
  /** The fields that differ between any two of the versions, in the form's order. */
  rows: ConflictRow[];
  /** Whether any field of the form changed elsewhere (false: the save can be re-sent as it is). */
  changedElsewhere: boolean;
  /** Theirs with the fields the user changed: what "Save mine" saves. */
  merged: F;
}

/** A field's value in a sentence: text as typed, `(empty)`, on/off, lists joined. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/**
 * Compares the three versions of a form field by field (`labels` names the fields compared, in
 * the order shown; `show` renders a value, `showValue` by default). Two values are the same when
 * they show the same (so row ids of a list editor, or blank vs null, do not count as changes).
 */
export function compareForms<F extends object>(
  base: F,
  theirs: F,
  mine: F,
  labels: Partial<Record<keyof F & string, string>>,
  show: (key: keyof F & string, value: unknown) => string = (_key, value) => showValue(value),
): FormComparison<F> {
  const rows: ConflictRow[] = [];
  const merged = { ...theirs };
  let changedElsewhere = false;
  const same = (key: keyof F & string, a: unknown, b: unknown) => show(key, a) === show(key, b);
  for (const key of Object.keys(labels) as (keyof F & string)[]) {
    const mineChanged = !same(key, mine[key], base[key]);
    const theirsChanged = !same(key, theirs[key], base[key]);
    if (mineChanged) merged[key] = mine[key];
    if (theirsChanged) changedElsewhere = true;
    if (!mineChanged && !theirsChanged) continue;
    rows.push({
      key,
      label: labels[key] ?? key,
      base: show(key, base[key]),
      theirs: show(key, theirs[key]),
      mine: show(key, mine[key]),
      clash: mineChanged && theirsChanged && !same(key, mine[key], theirs[key]),
      theirsOnly: theirsChanged && !mineChanged,
    });
  }
  return { rows, changedElsewhere, merged };
}
