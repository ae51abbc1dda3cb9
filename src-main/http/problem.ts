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
