import { ErrorCodes } from '../../src-shared/api/errors';

export interface ProblemExtras {
  errors?: { pointer: string; detail: string }[];
  [key: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/**
 * A failure the caller can act on. Thrown anywhere under a route, it becomes an RFC 9457
 * `application/problem+json` response with this status and stable `code`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  toProblem(instance?: string): Record<string, unknown> {
    return problemBody(this.status, this.code, this.detail, instance, this.extras);
  }
}

export function problemBody(
  status: number,
  code: string,
  detail: string,
  instance?: string,
  extras: ProblemExtras = {},
): Record<string, unknown> {
  return {
    type: `https://drydock.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(instance ? { instance } : {}),
    ...extras,
  };
}

export const notFound = (what: string, code: string = ErrorCodes.NOT_FOUND) => new ApiError(404, code, `${what} was not found.`);
export const badRequest = (code: string, detail: string, extras?: ProblemExtras) => new ApiError(400, code, detail, extras);
export const forbidden = (detail: string, code: string = ErrorCodes.FORBIDDEN) => new ApiError(403, code, detail);
export const conflict = (code: string, detail: string, extras?: ProblemExtras) => new ApiError(409, code, detail, extras);
export const unprocessable = (code: string, detail: string, extras?: ProblemExtras) => new ApiError(422, code, detail, extras);

/** A validation failure on one field, with its JSON pointer (e.g. `/body/expiresIn`). */
export const invalidField = (pointer: string, detail: string) =>
  new ApiError(400, ErrorCodes.VALIDATION_FAILED, detail, { errors: [{ pointer, detail }] });

/** `key` as one reference token of a JSON pointer (RFC 6901: `~` is `~0`, `/` is `~1`). */
export const pointerToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
const keyOfPointer = (pointer: string): string => pointer.slice(pointer.lastIndexOf('/') + 1).replaceAll('~1', '/').replaceAll('~0', '~');

export const UNKNOWN_FIELD_DETAIL = 'is not a known field';
/** Unknown keys named in `errors[]` (a body may carry thousands) and in the detail. */
const MAX_UNKNOWN_LISTED = 100;
const MAX_UNKNOWN_NAMED = 10;
const shortened = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/**
 * 400 `UNKNOWN_FIELD` for keys a request does not describe (the rule: src-shared/api/unknown-fields.ts),
 * each given by its JSON pointer (`/body/dashboardDraft/bogus`): the detail names the keys and where
 * they are, `errors[]` has one entry per key.
 */
export function unknownFieldsError(pointers: readonly string[]): ApiError {
  const named = pointers.slice(0, MAX_UNKNOWN_NAMED).map((pointer) => `${JSON.stringify(shortened(keyOfPointer(pointer)))} at ${shortened(pointer)}`);
  const more = pointers.length > MAX_UNKNOWN_NAMED ? ` and ${pointers.length - MAX_UNKNOWN_NAMED} more` : '';
  const one = pointers.length === 1;
  return new ApiError(
    400,
    ErrorCodes.UNKNOWN_FIELD,
    `The request has ${one ? 'a field' : 'fields'} this operation does not accept: ${named.join(', ')}${more}. Remove ${one ? 'it' : 'them'} and send it again.`,
    { errors: pointers.slice(0, MAX_UNKNOWN_LISTED).map((pointer) => ({ pointer, detail: UNKNOWN_FIELD_DETAIL })) },
  );
}

/** What the validator reports of one failure (Ajv's error object, the part read here). */
export interface SchemaFailure {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * The 400 of a request part (`body`, `querystring`, `params`) its schema refused. Keys the schema
 * does not describe are answered first and alone, as `UNKNOWN_FIELD`: an Ajv report of a closed
 * object with an unknown key also carries the failures that follow from it (every branch of a
 * nullable, `must match a schema in anyOf`), which would only blur what to fix. Any other failure
 * is `VALIDATION_FAILED` with each field's pointer.
 */
export function validationError(part: string, failures: readonly SchemaFailure[]): ApiError {
  const unknown = new Set<string>();
  for (const failure of failures) {
    const key = failure.params.additionalProperty;
    if (failure.keyword === 'additionalProperties' && typeof key === 'string') unknown.add(`/${part}${failure.instancePath}/${pointerToken(key)}`);
  }
  if (unknown.size > 0) return unknownFieldsError([...unknown]);
  const errors = failures.map((failure) => {
    const missing = failure.params.missingProperty;
    const pointer = `/${part}${failure.instancePath}${typeof missing === 'string' ? `/${pointerToken(missing)}` : ''}`;
    return { pointer, detail: failure.message ?? 'is invalid' };
  });
  const detail = errors.map((e) => `${e.pointer} ${e.detail}`).join('; ');
  return new ApiError(400, ErrorCodes.VALIDATION_FAILED, `The request is invalid: ${detail}.`, { errors });
}
