// The building blocks the data-model operations and shapes share (not part of the contract's exports).
import { Type } from 'typebox';
import { MAX_FILE_PATH_LENGTH } from '../file-paths';
import { MAX_COMMIT_MESSAGE_LENGTH } from './limits';

export const TAG = 'Data Model';
export const UPLOADS_TAG = 'Data Model Uploads';
export const D = '/build/api/v1/deployments/{deploymentId}';

export const BranchName = Type.String({ minLength: 1, maxLength: 100, description: 'A git branch name' });
export const FilePath = Type.String({
  minLength: 1,
  maxLength: MAX_FILE_PATH_LENGTH,
  description: 'Repository-relative path with `/` separators, e.g. `model/cubes/orders.yml`',
});
export const CommitId = Type.String({ description: 'Git commit id (40 hex digits)' });
export const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file content, lowercase hex' });
export const CommitMessage = Type.String({ minLength: 1, maxLength: MAX_COMMIT_MESSAGE_LENGTH });

export const BranchQuery = Type.Object(
  {
    branchName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Branch to act on; default: the caller’s dev-mode branch when in dev mode, else the deploy branch',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PUSH_NOTE =
  ' When the target branch tracks an upstream, the new commit is pushed (fast-forward only) within the request and `push` says whether it ' +
  'reached the remote; a push that fails never undoes the commit (`push.status` `rejected` or `failed` with the reason).';
