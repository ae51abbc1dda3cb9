// Data-model authoring under /build/api/v1: model files of a branch, dev mode, branches and their
// operations, validation, and chunked uploads. Files live in a git repository per deployment.
// The spec's two Data Model tags, in one folder: shapes.ts (limits, codes, shapes), files.ts,
// uploads.ts and branches.ts (the operations); the path rule lives in ../file-paths.ts.
import { getDataModelFiles, writeDataModelFiles, deleteDataModelFile, renameDataModelFile, validateDataModel } from './files';
import { startDataModelUpload, uploadDataModelFileChunk, finishDataModelUpload, getDataModelFileHashes } from './uploads';
import {
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
} from './branches';

export { ALLOWED_FILE_EXTENSIONS, MAX_FILE_PATH_LENGTH, filePathProblem } from '../file-paths';
export * from './limits';
export * from './shapes';
export * from './files';
export * from './uploads';
export * from './branches';

export const dataModelRoutes = {
  getDataModelFiles,
  writeDataModelFiles,
  deleteDataModelFile,
  renameDataModelFile,
  validateDataModel,
  startDataModelUpload,
  uploadDataModelFileChunk,
  finishDataModelUpload,
  getDataModelFileHashes,
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
