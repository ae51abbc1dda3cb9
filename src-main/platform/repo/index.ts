export { GitRepository, RepoError, RepositoryDamagedError, newPathProblems, branchNameProblem, isValidBranchName, notifyRefChange, type RefChange } from './repository';
export type { BlobWrite, CommitInfo, CommitResult, FileWrite, MergeOutcome, MergeResult, RepoErrorCode, Signature } from './repository';
export { diffTrees, threeWayMerge, pathsShadowedByFiles } from './tree';
export type { ChangeStatus, FlatTree, TreeChange, TreeFile } from './tree';
export { KeyedMutex } from './mutex';
export { findSampleProjectDir, readSampleModelFiles } from './sample';
export { divergence, isAncestor, type Divergence } from './divergence';
export {
  REMOTE,
  RemoteError,
  clearRemoteTracking,
  deleteRemoteBranch,
  fetchRemote,
  labelOf,
  pushBranch,
  redact,
  remoteTrackingHead,
  remoteTrackingHeads,
  setRemoteTrackingHeads,
  type FetchResult,
  type RemoteEndpoint,
  type RemoteErrorCode,
  type RemoteOptions,
} from './remote';
