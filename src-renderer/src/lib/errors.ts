import { ApiProblem, type FieldError } from '../../../src-shared/api/client';
import { plainCode } from './plain/codes';
import { plainFieldError, plainProblem } from './plain/problems';

/**
 * What the UI shows for a failure: never swallowed; in plain words with the fix (lib/plain), and
 * the service's own words, code and field pointers kept in `technical` for the "Details" disclosure.
 */
export interface ShownError {
  title: string;
  detail: string;
  code: string | null;
  status: number | null;
  /** Field errors in plain words (pointers as the service sent them, for matching form fields). */
  fields: FieldError[];
  /** What the service said, as it said it (shown under "Details"); absent for failures that are not the service's. */
  technical?: Technical;
}

export interface Technical {
  title: string | null;
  detail: string;
  fields: FieldError[];
  operationId: string | null;
}

export function toShownError(error: unknown, action?: string): ShownError {
  if (error instanceof ApiProblem) {
    const fields = error.errors.map((f) => ({ pointer: f.pointer, detail: plainFieldError(f.pointer, f.detail, error.operationId) }));
    const plain = plainProblem({ code: error.code, status: error.status, detail: error.detail, fieldCount: fields.length, action });
    return {
      title: plain.title,
      detail: plain.detail,
      code: error.code || null,
      status: error.status,
      fields,
      technical: { title: error.title || null, detail: error.detail, fields: error.errors, operationId: error.operationId || null },
    };
  }
  return {
    title: action ? `${action} failed` : 'That did not work',
    detail: error instanceof Error ? error.message : String(error),
    code: null,
    status: null,
    fields: [],
  };
}

/** `/body/templateVariables/region` → `templateVariables.region` (for matching form fields). */
export const fieldPath = (pointer: string): string => pointer.split('/').filter(Boolean).slice(1).join('.');

/** The first field error about `field` (or one of its children), if any. */
export function errorFor(error: ShownError | null, field: string): string | null {
  if (!error) return null;
  const match = error.fields.find((f) => {
    const path = fieldPath(f.pointer);
    return path === field || path.startsWith(`${field}.`);
  });
  return match ? match.detail : null;
}

/** The same error without the field errors about `field` (once the user has changed that field). */
export function withoutField(error: ShownError | null, field: string): ShownError | null {
  if (!error) return null;
  const fields = error.fields.filter((f) => {
    const path = fieldPath(f.pointer);
    return path !== field && !path.startsWith(`${field}.`);
  });
  return fields.length === error.fields.length ? error : { ...error, fields };
}

/** The failure as one line, for places with room for a sentence only (under a field, in a widget). */
export function inOneLine(error: ShownError): string {
  const title = error.title.replace(/[.!?]$/, '');
  return error.detail ? `${title}. ${error.detail}` : `${title}.`;
}

/**
 * A background job's failure (`{ code, message }` of a push, run, preview or query run) shown like a
 * request's: `headline` says which job, the code's plain words what happened and what to do, and
 * the job's own message stays under "Details".
 */
export function shownJobError(error: { code: string; message: string } | null | undefined, headline: string): ShownError {
  const message = error?.message ?? 'It ended without saying why.';
  const code = error?.code || null;
  const plain = plainProblem({ code, status: null, detail: message, fieldCount: 0 });
  const known = plainCode(code);
  return {
    title: known ? `${headline}: ${known.what}` : headline,
    detail: plain.detail,
    code,
    status: null,
    fields: [],
    technical: { title: null, detail: message, fields: [], operationId: null },
  };
}
