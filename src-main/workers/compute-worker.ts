// Entry of the compute threads (see platform/workers/pools.ts): every named export is a task the
// service runs with `runCompute(ctx, name, input)`. Tasks are pure functions of their input plus
// read-only access to git objects and build snapshots (upload tasks also write an upload's part
// files and its checked files' blobs); they never touch SQLite or HTTP.
import { stageUploadFile as stageUploadFileTask, storeUploadChunk as storeUploadChunkTask } from './upload-tasks';
import { readSharedBase64Body as readSharedBase64BodyTask, readSharedJsonBody as readSharedJsonBodyTask } from '../platform/json/shared-body';
import { buildCommit as buildCommitTask } from '../features/builds/build-tasks';
import { planPublication as planPublicationTask, publicationSources as publicationSourcesTask, snapshotViews as snapshotViewsTask } from '../features/lakehouse/plan-tasks';
import { planWarehousePush as planWarehousePushTask } from '../features/warehouse-sync/push-tasks';
import { pulledModelFiles as pulledModelFilesTask } from '../features/warehouse-sync/pull-tasks';
import { transformGenerate as transformGenerateTask } from '../features/transform-sync/transform-tasks';
import { renderExportFile as renderExportFileTask } from '../features/dashboard-exports/export-tasks';
import { agentModelContext as agentModelContextTask } from '../features/scheduled-tasks/context-tasks';
import { compileQueryModel as compileQueryModelTask } from '../features/queries/model-tasks';
import { compareReviewRows as compareReviewRowsTask, prepareModelReview as prepareModelReviewTask } from '../features/reviews/review-tasks';
import { prepareModelTestRun as prepareModelTestRunTask } from '../features/model-tests/tasks';
import { gatedTask } from '../platform/workers/stop-gate';

// Each task runs with the stop gate its input carries (platform/workers/stop-gate.ts).
export const stageUploadFile = gatedTask(stageUploadFileTask);
export const storeUploadChunk = gatedTask(storeUploadChunkTask);
export const readSharedBase64Body = gatedTask(readSharedBase64BodyTask);
export const readSharedJsonBody = gatedTask(readSharedJsonBodyTask);
export const buildCommit = gatedTask(buildCommitTask);
export const planPublication = gatedTask(planPublicationTask);
export const publicationSources = gatedTask(publicationSourcesTask);
export const snapshotViews = gatedTask(snapshotViewsTask);
export const planWarehousePush = gatedTask(planWarehousePushTask);
export const pulledModelFiles = gatedTask(pulledModelFilesTask);
export const transformGenerate = gatedTask(transformGenerateTask);
export const renderExportFile = gatedTask(renderExportFileTask);
export const agentModelContext = gatedTask(agentModelContextTask);
export const compileQueryModel = gatedTask(compileQueryModelTask);
export const compareReviewRows = gatedTask(compareReviewRowsTask);
export const prepareModelReview = gatedTask(prepareModelReviewTask);
export const prepareModelTestRun = gatedTask(prepareModelTestRunTask);

/** What a thread loads at start (see WARM_UP_EXPORT in platform/workers/pools.ts). */
export function ready(): true {
  return true;
}
