export type RemoteErrorCode =
  | 'UPSTREAM_AUTH_FAILED'
  | 'UPSTREAM_NOT_FOUND'
  | 'UPSTREAM_UNREACHABLE'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_CANCELLED'
  | 'PUSH_REJECTED'
  | 'UPSTREAM_ERROR';

/** A failure talking to the team's repository; the message never carries a credential. */
export class RemoteError extends Error {
  constructor(
    readonly code: RemoteErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}
