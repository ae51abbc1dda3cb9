// Counts with their noun in the right number, everywhere in the UI ("1 error", "2 errors", "0 files").
// One helper on Intl.PluralRules (the app's text is English: en-US rules and digit grouping), so no
// screen writes "error(s)" or `${n} errors` by hand.

const rules = new Intl.PluralRules('en-US');
const numbers = new Intl.NumberFormat('en-US');

/** The noun alone in the number `count` asks for: `noun(1, 'view')` → `view`, `noun(3, 'entry', 'entries')` → `entries`. */
export function noun(count: number, singular: string, pluralForm = `${singular}s`): string {
  return rules.select(count) === 'one' ? singular : pluralForm;
}

/** `1 error`, `2 errors`, `1,204 rows`: a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${numbers.format(count)} ${noun(count, singular, pluralForm)}`;
}

/** `was`/`were` (or any pair of verb forms) agreeing with `count`. */
export function verb(count: number, one: string, many: string): string {
  return rules.select(count) === 'one' ? one : many;
}
