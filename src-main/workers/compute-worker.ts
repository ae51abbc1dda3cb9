// Entry of the compute threads (see platform/workers/pools.ts): every named export is a task the
// service runs with `runCompute(ctx, name, input)`. Tasks are pure functions of their input plus
// read-only access to git objects and build snapshots (upload tasks also write an upload's part
// files and its checked files' blobs); they never touch SQLite or HTTP.
export { stageUploadFile, storeUploadChunk } from './upload-tasks';
export { readSharedBase64Body, readSharedJsonBody } from '../platform/json/shared-body';
export { buildCommit } from '../features/builds/build-tasks';
export { planPublication, publicationSources, snapshotViews } from '../features/lakehouse/plan-tasks';
export { planWarehousePush } from '../features/warehouse-sync/push-tasks';
export { pulledModelFiles } from '../features/warehouse-sync/pull-tasks';
export { transformGenerate } from '../features/transform-sync/transform-tasks';
export { renderExportFile } from '../features/dashboard-exports/export-tasks';
export { agentModelContext } from '../features/scheduled-tasks/context-tasks';
export { compileQueryModel } from '../features/queries/model-tasks';
export { compareReviewRows, prepareModelReview } from '../features/reviews/review-tasks';
export { prepareModelTestRun } from '../features/model-tests/tasks';

/** What a thread loads at start (see WARM_UP_EXPORT in platform/workers/pools.ts). */
export function ready(): true {
  return true;
}
