// Model files of a branch: list, read, write, delete, rename, and validate (compile) them.
import { Type } from 'typebox';
import { DeploymentParams, defineRoute, Nullable, PageQuery } from '../contract';
import { MAX_CONTENT_PAGE_BYTES, MAX_FILES_PER_WRITE } from './limits';
import { BranchQuery, D, FilePath, TAG } from './parts';
import { FileContent, FileList, ValidationResult, WorkingState } from './shapes';

export const getDataModelFiles = defineRoute({
  method: 'GET',
  path: `${D}/data-model/files`,
  operationId: 'getDataModelFiles',
  tag: TAG,
  summary: 'List the files of a branch, or read one file with `path`',
  description:
    'Dev-mode branches show their uncommitted edits. Needs deployment read access. Reading one file answers its version as `ETag` (the quoted `sha256`), for `If-Match` on writes. ' +
    `With \`content=true\` each listed file carries its text, so a client reads a whole branch in a few pages; such a page ends early, before the file that would take its content past ${MAX_CONTENT_PAGE_BYTES / 1024 / 1024} MiB (it holds at least one file).`,
  params: DeploymentParams,
  query: Type.Object(
    {
      branchName: BranchQuery.properties.branchName,
      path: Type.Optional(FilePath),
      content: Type.Optional(Type.Boolean({ description: 'List pages carry each file’s text (a read with `path` always does)' })),
      ...PageQuery,
    },
    { additionalProperties: false },
  ),
  response: Type.Union([FileContent, FileList]),
});

export const writeDataModelFiles = defineRoute({
  method: 'PUT',
  path: `${D}/data-model/files`,
  operationId: 'writeDataModelFiles',
  tag: TAG,
  summary: 'Write files on a dev-mode branch (uncommitted until `commit`)',
  description:
    'Only the owner’s dev-mode branch accepts writes; other branches answer 409 `BRANCH_NOT_IN_DEV_MODE`. ' +
    'A file’s `baseSha256` (or, for a one-file write, the `If-Match` header with the ETag its GET answered) names the version the edit was based on ' +
    '(`null`: a new file); when the branch holds another version now, nothing is written and the answer is 409 `FILE_CHANGED` with `files[]` ' +
    '(`path`, `baseSha256`, `currentSha256`).',
  params: DeploymentParams,
  query: BranchQuery,
  body: Type.Object(
    {
      files: Type.Array(
        Type.Object(
          {
            path: FilePath,
            content: Type.String(),
            baseSha256: Type.Optional(
              Nullable(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 of the version this edit was based on; null for a file that must not exist yet' })),
            ),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: MAX_FILES_PER_WRITE },
      ),
    },
    { additionalProperties: false },
  ),
  response: WorkingState,
});

export const deleteDataModelFile = defineRoute({
  method: 'DELETE',
  path: `${D}/data-model/files`,
  operationId: 'deleteDataModelFile',
  tag: TAG,
  summary: 'Delete a file on a dev-mode branch (uncommitted until `commit`)',
  description: 'With `If-Match` (the file’s ETag), a file that changed since answers 409 `FILE_CHANGED` and stays.',
  params: DeploymentParams,
  query: Type.Object({ branchName: BranchQuery.properties.branchName, path: FilePath }, { additionalProperties: false }),
  response: WorkingState,
});

export const renameDataModelFile = defineRoute({
  method: 'POST',
  path: `${D}/data-model/files/rename`,
  operationId: 'renameDataModelFile',
  tag: TAG,
  summary: 'Rename or move a file on a dev-mode branch (uncommitted until `commit`)',
  description: 'With `If-Match` (the ETag of the file at `path`), a file that changed since answers 409 `FILE_CHANGED` and is not moved.',
  params: DeploymentParams,
  query: BranchQuery,
  body: Type.Object({ path: FilePath, newPath: FilePath }, { additionalProperties: false }),
  response: WorkingState,
});

export const validateDataModel = defineRoute({
  method: 'GET',
  path: `${D}/data-model/validate`,
  operationId: 'validateDataModel',
  tag: TAG,
  summary: 'Compile the model files of a branch',
  description: 'Compile errors are a successful answer: 200 with `valid: false` and the diagnostics.',
  params: DeploymentParams,
  query: BranchQuery,
  response: ValidationResult,
});

/** In the contract's order (`dataModelRoutes`). */
export const fileRoutes = {
  getDataModelFiles,
  writeDataModelFiles,
  deleteDataModelFile,
  renameDataModelFile,
  validateDataModel,
};
