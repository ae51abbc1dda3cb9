// Chunked uploads of model files: declare, send chunks, finish (one commit), and the hashes a client
// compares to upload only what changed.
import { Type } from 'typebox';
import { DeploymentParams, defineRoute, literals } from '../contract';
import { PushReport } from '../git-host';
import { MAX_CHUNK_BYTES, MAX_FILE_BYTES, MAX_UPLOAD_FILES } from './limits';
import { BranchName, BranchQuery, CommitId, CommitMessage, D, FilePath, PUSH_NOTE, Sha256, UPLOADS_TAG } from './parts';
import { FileChange, UPLOAD_STATES, UploadFileStatus, UploadStatus } from './shapes';

export const startDataModelUpload = defineRoute({
  method: 'POST',
  path: `${D}/data-model/upload/start`,
  operationId: 'startDataModelUpload',
  tag: UPLOADS_TAG,
  summary: 'Start (or resume) a chunked upload of model files',
  description:
    'Declares the files to send (size and SHA-256 each) and the paths to remove. Passing the `uploadId` of an open ' +
    'upload with the same manifest resumes it and reports which byte ranges are still missing.',
  params: DeploymentParams,
  body: Type.Object(
    {
      branchName: Type.Optional(BranchName),
      files: Type.Array(
        Type.Object({ path: FilePath, size: Type.Integer({ minimum: 0, maximum: MAX_FILE_BYTES }), sha256: Sha256 }, { additionalProperties: false }),
        { maxItems: MAX_UPLOAD_FILES },
      ),
      deletePaths: Type.Optional(Type.Array(FilePath, { maxItems: MAX_UPLOAD_FILES })),
      message: Type.Optional(CommitMessage),
      uploadId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Resume this upload' })),
    },
    { additionalProperties: false },
  ),
  response: UploadStatus,
});

export const uploadDataModelFileChunk = defineRoute({
  method: 'POST',
  path: `${D}/data-model/upload/file`,
  operationId: 'uploadDataModelFileChunk',
  tag: UPLOADS_TAG,
  summary: 'Send one chunk of a file of an upload',
  description: 'Re-sending a chunk is harmless. The answer tells which ranges of the file are still missing.',
  params: DeploymentParams,
  body: Type.Object(
    {
      uploadId: Type.String({ minLength: 1, maxLength: 64 }),
      path: FilePath,
      offset: Type.Integer({ minimum: 0 }),
      data: Type.String({ description: `Base64 of the chunk bytes (at most ${MAX_CHUNK_BYTES} bytes)`, maxLength: Math.ceil(MAX_CHUNK_BYTES / 3) * 4 + 4 }),
    },
    { additionalProperties: false },
  ),
  response: Type.Object({
    uploadId: Type.String(),
    file: UploadFileStatus,
    uploadComplete: Type.Boolean(),
  }),
});

export const finishDataModelUpload = defineRoute({
  method: 'POST',
  path: `${D}/data-model/upload/finish`,
  operationId: 'finishDataModelUpload',
  tag: UPLOADS_TAG,
  summary: 'Check every file’s SHA-256 and commit all of them to the branch at once',
  description: 'All files appear on the branch in one commit, or none do. Finishing a finished upload answers its result again.' + PUSH_NOTE,
  params: DeploymentParams,
  body: Type.Object({ uploadId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  response: Type.Object({
    uploadId: Type.String(),
    branchName: Type.String(),
    state: literals(UPLOAD_STATES),
    commit: CommitId,
    changed: Type.Boolean({ description: 'False when the branch already had exactly these files' }),
    changes: Type.Array(FileChange),
    push: Type.Optional(PushReport),
  }),
});

export const getDataModelFileHashes = defineRoute({
  method: 'GET',
  path: `${D}/data-model/file-hashes`,
  operationId: 'getDataModelFileHashes',
  tag: UPLOADS_TAG,
  summary: 'SHA-256 of every file of a branch, so a client uploads only what changed',
  params: DeploymentParams,
  query: BranchQuery,
  response: Type.Object({
    branchName: Type.String(),
    commit: CommitId,
    hashes: Type.Record(Type.String(), Type.String(), { description: 'path → SHA-256 (lowercase hex)' }),
  }),
});

/** In the contract's order (`dataModelRoutes`). */
export const uploadRoutes = {
  startDataModelUpload,
  uploadDataModelFileChunk,
  finishDataModelUpload,
  getDataModelFileHashes,
};
