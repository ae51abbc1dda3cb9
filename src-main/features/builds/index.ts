/** What other areas may call on builds: the deployed builds publication reads. */
export {
  BUILD_JOB_KIND,
  buildForPublication,
  getBuild,
  getLatestSuccessfulBuild,
  listBuilds,
  buildSnapshotFile,
  loadBuildSnapshot,
  onBuildSucceeded,
  recordBuildCheck,
  startBuild,
  waitForBuild,
  type BuildRecord,
  type BuildSucceededListener,
  type BuildSnapshot,
  type BuildStatusValue,
} from './builds';
export { registerBuilds } from './register';
