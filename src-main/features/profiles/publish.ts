import { createHash } from 'node:crypto';
import * as dm from '../../../src-shared/api/data-model';
import type { FileChangeSummary, RemotePublishPreview, RemoteTransfer } from '../../../src-shared/api/remote-transfers';
import { TransferErrorCodes as Codes } from '../../../src-shared/api/remote-transfers';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { getJobRunner, JobFailure, type Job, type JobContext, type JobOutcome } from '../../platform/jobs';
import { readBranchSnapshot } from '../data-model';
import { allPagesRemote, callRemote, openRemote, type Remote } from './remote';
import { assertServed, endTransferWith, enqueueTransfer, replayedTransfer, undoTimeout } from './transfer-job';
import { finishTransfer, updateTransfer } from './transfers';

export const PUBLISH_JOB = 'remote-model-publish';
/** Bytes of a file per upload chunk (well under the API's 4 MiB, so one slow chunk costs little). */
const CHUNK_BYTES = 1024 * 1024;

const NEEDED = [dm.listBranches, dm.createBranch, dm.deleteBranch, dm.getDataModelFileHashes, dm.startDataModelUpload, dm.uploadDataModelFileChunk, dm.finishDataModelUpload];

export interface RemotePublishTarget {
  profileName: string;
  branchName?: string;
  targetDeploymentId: number;
  targetBranch?: string;
}

interface PublishInputs extends RemotePublishTarget {
  sourceDeploymentId: number;
  sourceBranch: string;
  sourceCommit: string;
  targetCommit: string | null;
  message: string;
}

interface LocalFile {
  path: string;
  content: Uint8Array;
  sha256: string;
}

interface Plan {
  send: LocalFile[];
  deletePaths: string[];
  changes: FileChangeSummary[];
  unchangedCount: number;
  warnings: string[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What makes the remote branch equal to the local one: files to send, paths to delete, and what is left out. */
function planFiles(files: { path: string; content: Uint8Array }[], remoteHashes: Record<string, string>): Plan {
  const plan: Plan = { send: [], deletePaths: [], changes: [], unchangedCount: 0, warnings: [] };
  const local = new Set<string>();
  for (const file of files) {
    const problem = dm.filePathProblem(file.path);
    if (problem) {
      plan.warnings.push(`${file.path} is left out: ${problem.detail}`);
      continue;
    }
    if (file.content.byteLength > dm.MAX_FILE_BYTES) {
      plan.warnings.push(`${file.path} is left out: it has ${file.content.byteLength} bytes, more than the ${dm.MAX_FILE_BYTES} a model file may have.`);
      continue;
    }
    local.add(file.path);
    const digest = sha256(file.content);
    const remote = remoteHashes[file.path];
    if (remote === digest) {
      plan.unchangedCount += 1;
      continue;
    }
    plan.send.push({ ...file, sha256: digest });
    plan.changes.push({ path: file.path, status: remote === undefined ? 'added' : 'modified' });
  }
  for (const path of Object.keys(remoteHashes).sort()) {
    if (local.has(path) || dm.filePathProblem(path)) continue;
    plan.deletePaths.push(path);
    plan.changes.push({ path, status: 'deleted' });
  }
  if (plan.send.length > dm.MAX_UPLOAD_FILES) throw new ApiError(413, 'UPLOAD_TOO_LARGE', `${plan.send.length} files would be sent; one upload takes at most ${dm.MAX_UPLOAD_FILES}.`);
  return plan;
}

interface RemoteBranchState {
  branchName: string;
  exists: boolean;
  commit: string | null;
  deployBranch: string;
}

async function remoteBranch(remote: Remote, deploymentId: number, requested: string | undefined, signal?: AbortSignal): Promise<RemoteBranchState> {
  const branches = await allPagesRemote((after) =>
    callRemote(remote, dm.listBranches, { params: { deploymentId }, query: { first: 1000, ...(after ? { after } : {}) }, signal }),
  );
  const deploy = branches.find((b) => b.isDeployBranch);
  if (!deploy) throw new ApiError(502, 'PROFILE_REMOTE_FAILED', `Profile "${remote.name}" listed no deploy branch for deployment ${deploymentId}.`);
  const name = requested ?? deploy.branchName;
  const found = branches.find((b) => b.branchName === name);
  return { branchName: name, exists: Boolean(found), commit: found?.headCommit ?? null, deployBranch: deploy.branchName };
}

async function remoteHashes(remote: Remote, deploymentId: number, branch: string, signal?: AbortSignal): Promise<Record<string, string>> {
  return (await callRemote(remote, dm.getDataModelFileHashes, { params: { deploymentId }, query: { branchName: branch }, signal })).hashes;
}

export async function previewRemotePublish(ctx: ServiceContext, deploymentId: number, body: RemotePublishTarget): Promise<RemotePublishPreview> {
  const local = await readBranchSnapshot(ctx, deploymentId, body.branchName);
  const remote = await openRemote(ctx, body.profileName);
  assertServed(remote, NEEDED);
  const target = await remoteBranch(remote, body.targetDeploymentId, body.targetBranch);
  // A branch that does not exist yet is created from the remote's deploy branch: compare with that.
  const plan = planFiles(local.files, await remoteHashes(remote, body.targetDeploymentId, target.exists ? target.branchName : target.deployBranch));
  if (!target.exists) plan.warnings.push(`The remote has no branch "${target.branchName}": it is created from "${target.deployBranch}".`);
  return {
    profileName: remote.name,
    remoteBaseUrl: remote.baseUrl,
    source: { deploymentId, branchName: local.branchName, commit: local.commit },
    target: { deploymentId: body.targetDeploymentId, branchName: target.branchName, exists: target.exists, commit: target.commit },
    files: plan.changes,
    unchangedCount: plan.unchangedCount,
    bytesToSend: plan.send.reduce((sum, f) => sum + f.content.byteLength, 0),
    identical: plan.changes.length === 0 && target.exists,
    warnings: plan.warnings,
  };
}

export async function startRemotePublish(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  body: RemotePublishTarget & { sourceCommit: string; targetCommit: string | null; message?: string; idempotencyKey?: string },
): Promise<RemoteTransfer> {
  const { idempotencyKey, ...request } = body;
  const identity = { deploymentId, ...request };
  const replayed = replayedTransfer(ctx, PUBLISH_JOB, deploymentId, identity, idempotencyKey);
  if (replayed) return replayed;
  const local = await readBranchSnapshot(ctx, deploymentId, body.branchName);
  if (local.commit !== body.sourceCommit) {
    throw new ApiError(409, Codes.REMOTE_SOURCE_CHANGED, `Branch "${local.branchName}" has new commits since the preview. Nothing was sent: preview again.`, {
      previewCommit: body.sourceCommit,
      currentCommit: local.commit,
    });
  }
  const remote = await openRemote(ctx, body.profileName);
  assertServed(remote, NEEDED);
  const title = body.message ?? `Publish ${local.branchName} from Drydock`;
  const message =
    `${title}\n\nPublished-from: Drydock deployment ${deploymentId}, branch ${local.branchName}, commit ${local.commit}\n` +
    `Published-by: ${principal.email ?? 'an API key'}`;
  const inputs: PublishInputs = { ...request, sourceDeploymentId: deploymentId, sourceBranch: local.branchName, message };
  return enqueueTransfer(ctx, principal, remote, { kind: PUBLISH_JOB, deploymentId, inputs, identity, idempotencyKey }, {
    kind: 'model-publish',
    source_branch: local.branchName,
    source_version: local.commit,
    target_deployment_id: body.targetDeploymentId,
    target_branch: body.targetBranch ?? null,
    target_version_before: body.targetCommit,
  });
}

/** Sends every file of the plan in chunks; progress runs from `from` to `to` percent by bytes. */
async function sendFiles(remote: Remote, deploymentId: number, uploadId: string, files: LocalFile[], jc: JobContext, from: number, to: number): Promise<void> {
  const total = files.reduce((sum, f) => sum + f.content.byteLength, 0) || 1;
  let sent = 0;
  for (const file of files) {
    // An empty file is complete without chunks.
    for (let offset = 0; offset < file.content.byteLength; offset += CHUNK_BYTES) {
      const chunk = file.content.subarray(offset, offset + CHUNK_BYTES);
      await callRemote(remote, dm.uploadDataModelFileChunk, {
        params: { deploymentId },
        body: { uploadId, path: file.path, offset, data: Buffer.from(chunk).toString('base64') },
        signal: jc.signal,
      });
      sent += chunk.byteLength;
      jc.progress(`sending files (${Math.round(sent / 1024)} of ${Math.round(total / 1024)} KiB)`, from + ((to - from) * sent) / total);
    }
  }
}

async function runPublish(ctx: ServiceContext, job: Job<PublishInputs>, jc: JobContext): Promise<unknown> {
  const input = job.inputs;
  const deploymentId = input.targetDeploymentId;
  updateTransfer(ctx, job.id, { status: 'RUNNING' });
  let remote: Remote | null = null;
  let createdBranch: string | null = null;
  try {
    jc.progress('reading the local branch', 5);
    const local = await readBranchSnapshot(ctx, input.sourceDeploymentId, input.sourceBranch);
    if (local.commit !== input.sourceCommit) {
      throw new JobFailure(Codes.REMOTE_SOURCE_CHANGED, `Branch "${local.branchName}" has new commits since the preview. Nothing was sent: preview again.`, { status: 409 });
    }
    remote = await openRemote(ctx, input.profileName);
    jc.progress('reading the remote branch', 10);
    const target = await remoteBranch(remote, deploymentId, input.targetBranch, jc.signal);
    if (target.commit !== input.targetCommit) {
      throw new JobFailure(
        Codes.REMOTE_TARGET_CHANGED,
        input.targetCommit === null
          ? `The remote branch "${target.branchName}" was created since the preview. Nothing was sent: preview again.`
          : target.exists
            ? `The remote branch "${target.branchName}" moved since the preview. Nothing was sent: preview again.`
            : `The remote branch "${target.branchName}" is gone since the preview. Nothing was sent: preview again.`,
        { status: 409 },
      );
    }
    updateTransfer(ctx, job.id, { target_branch: target.branchName, operation: target.exists ? 'UPDATE' : 'CREATE' });
    if (!target.exists) {
      await callRemote(remote, dm.createBranch, { params: { deploymentId }, body: { branchName: target.branchName, parentBranch: target.deployBranch }, signal: jc.signal });
      createdBranch = target.branchName;
    }
    const plan = planFiles(local.files, await remoteHashes(remote, deploymentId, target.branchName, jc.signal));
    updateTransfer(ctx, job.id, { changes: JSON.stringify(plan.changes) });
    let commit = target.commit;
    if (plan.changes.length > 0) {
      jc.progress('starting the upload', 15);
      const started = await callRemote(remote, dm.startDataModelUpload, {
        params: { deploymentId },
        body: { branchName: target.branchName, files: plan.send.map((f) => ({ path: f.path, size: f.content.byteLength, sha256: f.sha256 })), deletePaths: plan.deletePaths, message: input.message },
        signal: jc.signal,
      });
      await sendFiles(remote, deploymentId, started.uploadId, plan.send, jc, 15, 85);
      jc.progress('committing on the remote', 90);
      const finish = () => callRemote(remote!, dm.finishDataModelUpload, { params: { deploymentId }, body: { uploadId: started.uploadId }, signal: jc.signal });
      // Finishing twice answers the same result: when the first answer is lost, ask again.
      const finished = await finish().catch((error: unknown) => {
        if (jc.signal.aborted || !(error instanceof ApiError) || error.status < 500) throw error;
        return finish();
      });
      commit = finished.commit;
      updateTransfer(ctx, job.id, { changes: JSON.stringify(finished.changes.map((c) => ({ path: c.path, status: c.status }))) });
    } else if (createdBranch) {
      commit = (await remoteBranch(remote, deploymentId, target.branchName, jc.signal)).commit;
    }
    finishTransfer(ctx, job.id, 'COMPLETED', { target_version_after: commit, remote_provenance: plan.changes.length > 0 ? 'IN_COMMIT_MESSAGE' : null });
    return { transferId: job.id, commit };
  } catch (error) {
    // Until the upload is finished the remote branch is untouched (an open upload expires by
    // itself); only a branch this publish created has to go.
    let rolledBack: boolean | null = null;
    if (createdBranch && remote) {
      rolledBack = await callRemote(remote, dm.deleteBranch, { params: { deploymentId }, query: { branchName: createdBranch }, signal: undoTimeout() }).then(
        () => true,
        () => false,
      );
    }
    return endTransferWith(ctx, job.id, error, jc.signal, rolledBack);
  }
}

export function registerPublishJob(ctx: ServiceContext): void {
  getJobRunner(ctx).register<PublishInputs, unknown>(PUBLISH_JOB, (job, jc) => runPublish(ctx, job, jc) as Promise<JobOutcome<unknown>>, {
    resumable: false,
    maxAttempts: 1,
    concurrency: 2,
  });
}
