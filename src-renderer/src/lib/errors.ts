import { ApiProblem, type FieldError } from '../../../src-shared/api/client';

/** What the UI shows for a failure: never swallowed, always with the service's own words. */
export interface ShownError {
  title: string;
  detail: string;
  code: string | null;
  status: number | null;
  fields: FieldError[];
}

export function toShownError(error: unknown, action?: string): ShownError {
  const prefix = action ? `${action} failed` : 'The request failed';
  if (error instanceof ApiProblem) {
    return {
      title: error.status === 0 ? 'Service unreachable' : `${prefix} (${error.status}${error.title ? ` ${error.title}` : ''})`,
      detail: error.detail,
      code: error.code,
      status: error.status,
      fields: error.errors,
    };
  }
  return {
    title: prefix,
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
