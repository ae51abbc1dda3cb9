// Data-model authoring under /build/api/v1: model files of a branch, dev mode, branches and their
// operations, validation, and chunked uploads. Files live in a git repository per deployment.
// The spec's two Data Model tags, in one folder: limits.ts (limits, codes), parts.ts and shapes.ts, files.ts,
// uploads.ts and branches.ts (the operations); the path rule lives in ../file-paths.ts.
import { branchRoutes } from './branches';
import { fileRoutes } from './files';
import { uploadRoutes } from './uploads';

export { ALLOWED_FILE_EXTENSIONS, MAX_FILE_PATH_LENGTH, existingPathProblem, filePathProblem, type FilePathProblemCode } from '../file-paths';
export { caseTwins, caseTwinProblem, foldedName, portablePathProblem, type CaseTwin, type PathRuleCode, type PathRuleProblem } from '../../paths/portable-path';
export * from './limits';
export * from './shapes';
export * from './files';
export * from './uploads';
export * from './branches';

export const dataModelRoutes = { ...fileRoutes, ...uploadRoutes, ...branchRoutes };
