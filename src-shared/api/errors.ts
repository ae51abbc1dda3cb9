/** Stable `code` values of problem responses shared by every area. Areas add their own beside these. */
export const ErrorCodes = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** A request body named a key its operation does not describe (the rule: ./unknown-fields.ts). */
  UNKNOWN_FIELD: 'UNKNOWN_FIELD',
  /** The body is not JSON, or carries a key that could poison a prototype (`__proto__`). */
  MALFORMED_JSON: 'MALFORMED_JSON',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  TOKEN_REVOKED: 'TOKEN_REVOKED',
  FORBIDDEN: 'FORBIDDEN',
  EMBED_SESSION_REFUSED: 'EMBED_SESSION_REFUSED',
  NOT_FOUND: 'NOT_FOUND',
  ROUTE_NOT_FOUND: 'ROUTE_NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  MISDIRECTED_REQUEST: 'MISDIRECTED_REQUEST',
  CROSS_ORIGIN_REFUSED: 'CROSS_ORIGIN_REFUSED',
  INVALID_CURSOR: 'INVALID_CURSOR',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  INTERNAL: 'INTERNAL',
  /**
   * A write named (in `If-Match`, or a model file's `baseSha256`) a version that is no longer the
   * current one: nothing was written. One code for every versioned resource (model files,
   * workbooks and their dashboards, reports, settings), so a client handles stale writes once.
   */
  FILE_CHANGED: 'FILE_CHANGED',
  /** `If-Match` was not one entity tag (`"<sha256>"`, as a GET answered in `ETag`) or `*`. */
  INVALID_IF_MATCH: 'INVALID_IF_MATCH',
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
