// Two windows editing a deployment's env vars. The service versions the set as a whole (one ETag
// for GET/PUT …/env-vars, as the spec makes it one resource and If-Match names one version), so
// any save after a change elsewhere is refused (409 FILE_CHANGED, with the current set). The app
// makes the rule per variable: a save of a variable is re-sent on the new version when that
// variable is as it was when the user started editing it (another variable changed), and shown as
// "changed elsewhere" when it was itself changed, created or deleted meanwhile. Pure.
import type { EnvVar } from '../../../../src-shared/api/deployments';
import type { ConflictRow } from '../../lib/staleForm';

/** What the user is saving: a value (null: deleting the variable) and its secrecy. */
export interface EnvVarChange {
  name: string;
  value: string | null;
  isSecret: boolean;
}

/** Whether a variable is as it was (secrets compare by their time: their values never reach the page). */
export function sameEnvVar(a: EnvVar | null | undefined, b: EnvVar | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.name === b.name && a.isSecret === b.isSecret && (a.value ?? null) === (b.value ?? null) && a.updatedAt === b.updatedAt;
}

/** A variable's value in the "changed elsewhere" table. */
export function showEnvValue(v: EnvVar | null | undefined): string {
  if (!v) return '(not set)';
  if (v.isSecret) return `(secret, hidden; saved ${v.updatedAt})`;
  return v.value === '' || v.value === undefined || v.value === null ? '(empty)' : v.value;
}

const showChange = (change: EnvVarChange): string =>
  change.value === null ? '(deleted)' : change.isSecret ? '(new secret value, hidden)' : change.value === '' ? '(empty)' : change.value;

/**
 * A save refused because the set changed: null when the variable is as the user's edit was based on
 * (re-send it on the new version), else the rows that show what happened to it.
 */
export function envVarConflict(change: EnvVarChange, basedOn: EnvVar | null, current: EnvVar[]): ConflictRow[] | null {
  const theirs = current.find((v) => v.name === change.name) ?? null;
  if (sameEnvVar(basedOn, theirs)) return null;
  const rows: ConflictRow[] = [
    {
      key: 'value',
      label: change.name,
      base: showEnvValue(basedOn),
      theirs: showEnvValue(theirs),
      mine: showChange(change),
      clash: true,
      theirsOnly: false,
    },
  ];
  const secrecy = (v: EnvVar | null) => (v ? (v.isSecret ? 'yes' : 'no') : '—');
  if ((theirs?.isSecret ?? null) !== (basedOn?.isSecret ?? null) && change.value !== null) {
    rows.push({ key: 'isSecret', label: 'Secret', base: secrecy(basedOn), theirs: secrecy(theirs), mine: change.isSecret ? 'yes' : 'no', clash: (theirs?.isSecret ?? false) !== change.isSecret, theirsOnly: false });
  }
  return rows;
}
