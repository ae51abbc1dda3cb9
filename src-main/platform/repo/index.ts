export { GitRepository, RepoError, branchNameProblem, isValidBranchName } from './repository';
export type { CommitInfo, CommitResult, FileWrite, MergeOutcome, MergeResult, RepoErrorCode, Signature } from './repository';
export { diffTrees, threeWayMerge, pathsShadowedByFiles } from './tree';
export type { ChangeStatus, FlatTree, TreeChange, TreeFile } from './tree';
export { KeyedMutex } from './mutex';
export { findSampleProjectDir, readSampleModelFiles } from './sample';
