// Dev mode, branches, and the operations that move commits between them (commit, pull, merge).
import { Type } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, Page, PageQuery } from '../contract';
import { MAX_UPLOAD_FILES } from './limits';
import { BranchName, BranchQuery, CommitMessage, D, FilePath, PUSH_NOTE, TAG } from './parts';
import { Branch, BranchOperationResult } from './shapes';

export const startDevMode = defineRoute({
  method: 'POST',
  path: `${D}/dev-mode`,
  operationId: 'startDevMode',
  tag: TAG,
  summary: 'Enter dev mode on the caller’s personal dev branch',
  description:
    'Creates the caller’s personal dev branch (`dev-<userId>`, or `dev-<userId>-<parent>` for a parent other than the ' +
    'deploy branch) forked from `branchName` (default the deploy branch), or resumes it. Idempotent.',
  params: DeploymentParams,
  query: BranchQuery,
  response: Type.Object({ created: Type.Boolean(), branch: Branch }),
});

export const stopDevMode = defineRoute({
  method: 'DELETE',
  path: `${D}/dev-mode`,
  operationId: 'stopDevMode',
  tag: TAG,
  summary: 'Leave dev mode; the dev branch and its uncommitted edits are kept for next time',
  params: DeploymentParams,
  response: Type.Object({ isDevMode: Type.Literal(false), branchName: Nullable(Type.String({ description: 'The dev branch left, if any' })) }),
});

export const listBranches = defineRoute({
  method: 'GET',
  path: `${D}/branches`,
  operationId: 'listBranches',
  tag: TAG,
  summary: 'Branches of the deployment’s model repository',
  params: DeploymentParams,
  query: Type.Object({ ...PageQuery }, { additionalProperties: false }),
  response: Page(Branch),
});

export const createBranch = defineRoute({
  method: 'POST',
  path: `${D}/branches`,
  operationId: 'createBranch',
  tag: TAG,
  summary: 'Create a branch from a parent branch',
  params: DeploymentParams,
  body: Type.Object(
    { branchName: BranchName, parentBranch: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: the deploy branch' })) },
    { additionalProperties: false },
  ),
  status: 201,
  response: Branch,
});

export const deleteBranch = defineRoute({
  method: 'DELETE',
  path: `${D}/branches`,
  operationId: 'deleteBranch',
  tag: TAG,
  summary: 'Delete a branch; its child branches are re-parented to its parent',
  description:
    'The deploy branch cannot be deleted. `removeOnUpstream=true` also deletes the branch it tracks on the connected repository — only when ' +
    'the remote branch has no commits this branch lacks (409 `PUSH_REJECTED` otherwise: pull first); without a connection 409 ' +
    '`UPSTREAM_NOT_CONNECTED`, for a branch that tracks nothing 409 `BRANCH_HAS_NO_UPSTREAM`, and nothing is deleted then. Deleting a ' +
    'tracking branch without it keeps the remote branch, and later fetches do not bring it back.',
  params: DeploymentParams,
  query: Type.Object(
    { branchName: Type.String({ minLength: 1, maxLength: 100 }), removeOnUpstream: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
  response: Type.Object({
    branchName: Type.String(),
    deleted: Type.Literal(true),
    reparentedBranches: Type.Array(Type.String()),
    newParentBranch: Nullable(Type.String()),
    removedOnUpstream: Type.Boolean({ description: 'True when the remote branch was deleted too' }),
  }),
});

export const setBranchStagingEnvironment = defineRoute({
  method: 'PUT',
  path: `${D}/branches/staging-environment`,
  operationId: 'setBranchStagingEnvironment',
  tag: TAG,
  summary: 'Enable or disable the always-on staging environment of a branch',
  description:
    'Enabling creates the branch’s `staging` environment (listed in `GET D/environments`) and builds the branch at its head and on ' +
    'every commit (`GET D/build-status`); disabling removes the environment, revokes its tokens and resets the branch’s build status.',
  params: DeploymentParams,
  body: Type.Object({ branchName: BranchName, isStagingEnvironmentEnabled: Type.Boolean() }, { additionalProperties: false }),
  response: Branch,
});

const branchOperationFields = {
  branchName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: the caller’s dev-mode branch' })),
  message: Type.Optional(CommitMessage),
  dryRun: Type.Optional(Type.Boolean({ description: 'Report the changes (with content) without writing anything' })),
};
const BranchOperationBody = Type.Object(branchOperationFields, { additionalProperties: false });

export const commitBranch = defineRoute({
  method: 'POST',
  path: `${D}/commit`,
  operationId: 'commitBranch',
  tag: TAG,
  summary: 'Commit the uncommitted edits of a dev-mode branch',
  description: 'Author: the caller. `paths` commits only those files’ edits.' + PUSH_NOTE,
  params: DeploymentParams,
  body: Type.Object(
    { ...branchOperationFields, paths: Type.Optional(Type.Array(FilePath, { minItems: 1, maxItems: MAX_UPLOAD_FILES })) },
    { additionalProperties: false },
  ),
  bodyOptional: true,
  response: BranchOperationResult,
});

/** pull, merge and merge-to-default: the same body and answer, on the branch named (or the caller's dev-mode branch). */
function branchOperation<const Id extends string>(path: string, operationId: Id, summary: string, description: string) {
  return defineRoute({
    method: 'POST',
    path: `${D}/${path}`,
    operationId,
    tag: TAG,
    summary,
    description: description + PUSH_NOTE,
    params: DeploymentParams,
    body: BranchOperationBody,
    bodyOptional: true,
    response: BranchOperationResult,
  });
}

const MERGE_RULE = 'Commit first: uncommitted edits answer 409 `UNCOMMITTED_CHANGES`. Conflicts answer 409 `MERGE_CONFLICT` and change nothing.';

export const pullBranch = branchOperation(
  'pull',
  'pullBranch',
  'Bring the parent branch’s new commits into a branch',
  '409 `MERGE_CONFLICT` with `conflicts` (paths) when both changed a file differently; nothing is changed then.',
);

export const mergeBranch = branchOperation('merge', 'mergeBranch', 'Merge a branch into its parent branch', MERGE_RULE);

export const mergeBranchToDefault = branchOperation('merge-to-default', 'mergeBranchToDefault', 'Merge a branch into the deploy branch', MERGE_RULE);

/** In the contract's order (`dataModelRoutes`). */
export const branchRoutes = {
  startDevMode,
  stopDevMode,
  listBranches,
  createBranch,
  deleteBranch,
  setBranchStagingEnvironment,
  commitBranch,
  pullBranch,
  mergeBranch,
  mergeBranchToDefault,
};
