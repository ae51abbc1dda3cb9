import type { Static } from 'typebox';
import type { PromotableContent } from '../../../src-shared/api/promotions';
import type { RemotePromotionPreview, RemoteTransfer } from '../../../src-shared/api/remote-transfers';
import { recordWorkbookRemoteOrigin, TransferErrorCodes as Codes } from '../../../src-shared/api/remote-transfers';
import * as wb from '../../../src-shared/api/workbooks';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { getJobRunner, JobFailure, JobOutcome, type Job, type JobContext } from '../../platform/jobs';
import { changesBetween, promotableContent, requireWorkbook } from '../workbooks';
import { contentHash } from '../workspace-items';
import { allPagesRemote, callRemote, openRemote, type Remote } from './remote';
import { assertServed, endTransferWith, enqueueTransfer, replayedTransfer, serves, undoTimeout } from './transfer-job';
import { finishTransfer, lastPromotedTarget, updateTransfer } from './transfers';

export const PROMOTION_JOB = 'remote-workbook-promotion';

type RemoteWorkbook = Static<typeof wb.WorkbookDetail>;

/** Operations of the remote a promotion needs (the recording of provenance is optional). */
const NEEDED = [wb.listWorkbooks, wb.getWorkbook, wb.upsertWorkbookBySlug, wb.publishWorkbookDashboard, wb.updateWorkbookDashboard, wb.deleteWorkbook];

export interface RemotePromotionTarget {
  profileName: string;
  targetDeploymentId: number;
  targetWorkbookId?: number | null;
}

interface PromotionInputs extends RemotePromotionTarget {
  sourceDeploymentId: number;
  sourceWorkbookId: number;
  sourceSlug: string;
  sourceHash: string;
  targetHash: string | null;
  /** The content that hashed to sourceHash when the promotion was accepted: what is sent. */
  content: PromotableContent;
  sourceService: string;
}

const contentOf = (w: RemoteWorkbook): PromotableContent => ({
  name: w.name,
  description: w.description ?? null,
  dashboardDraft: w.dashboardDraft ?? null,
  dashboardPublished: w.dashboardPublished ?? null,
});

/** The remote workbook written: the one named, else the one last promoted to there, else the one with the slug, else none (create). */
async function resolveTarget(
  ctx: ServiceContext,
  remote: Remote,
  source: { id: number; slug: string },
  input: RemotePromotionTarget,
  signal?: AbortSignal,
): Promise<{ workbook: RemoteWorkbook | null; slug: string }> {
  const deploymentId = input.targetDeploymentId;
  const get = (workbookId: number) => callRemote(remote, wb.getWorkbook, { params: { deploymentId, workbookId }, signal });
  if (input.targetWorkbookId) {
    const workbook = await get(input.targetWorkbookId);
    return { workbook, slug: workbook.slug };
  }
  const linked = lastPromotedTarget(ctx, source.id, remote.name, remote.baseUrl, deploymentId);
  if (linked !== null) {
    const workbook = await get(linked).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    });
    if (workbook) return { workbook, slug: workbook.slug };
  }
  const candidates = await allPagesRemote(
    (after) => callRemote(remote, wb.listWorkbooks, { params: { deploymentId }, query: { search: source.slug, first: 100, ...(after ? { after } : {}) }, signal }),
    10,
  );
  const match = candidates.find((w) => w.slug === source.slug);
  return { workbook: match ? await get(match.id) : null, slug: source.slug };
}

function warningsFor(remote: Remote, source: PromotableContent, target: PromotableContent | null): string[] {
  const warnings: string[] = [];
  if (!source.dashboardPublished && target?.dashboardPublished) {
    warnings.push('The remote keeps its published dashboard: its API has no way to unpublish one. Only the draft, name and description change.');
  }
  if (!serves(remote, recordWorkbookRemoteOrigin.operationId)) {
    warnings.push('The remote cannot record where the workbook came from; the history on this side keeps it.');
  }
  return warnings;
}

export async function previewRemotePromotion(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  input: RemotePromotionTarget,
): Promise<RemotePromotionPreview> {
  const source = requireWorkbook(ctx, principal, deploymentId, workbookId);
  const remote = await openRemote(ctx, input.profileName);
  assertServed(remote, NEEDED);
  const target = await resolveTarget(ctx, remote, source, input);
  const sourceContent = promotableContent(source);
  const targetContent = target.workbook ? contentOf(target.workbook) : null;
  return {
    profileName: remote.name,
    remoteBaseUrl: remote.baseUrl,
    operation: target.workbook ? 'UPDATE' : 'CREATE',
    source: { deploymentId, workbookId: source.id, slug: source.slug, name: source.name },
    target: target.workbook
      ? { deploymentId: input.targetDeploymentId, workbookId: target.workbook.id, slug: target.workbook.slug, name: target.workbook.name }
      : { deploymentId: input.targetDeploymentId, workbookId: null, slug: target.slug, name: source.name },
    sourceHash: contentHash(sourceContent),
    targetHash: targetContent ? contentHash(targetContent) : null,
    changes: changesBetween(sourceContent, targetContent),
    sourceContent,
    targetContent,
    warnings: warningsFor(remote, sourceContent, targetContent),
  };
}

export async function startRemotePromotion(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  body: RemotePromotionTarget & { sourceHash: string; targetHash: string | null; idempotencyKey?: string },
): Promise<RemoteTransfer> {
  const { idempotencyKey, ...request } = body;
  const source = requireWorkbook(ctx, principal, deploymentId, workbookId);
  const identity = { workbookId, ...request };
  const replayed = replayedTransfer(ctx, PROMOTION_JOB, deploymentId, identity, idempotencyKey);
  if (replayed) return replayed;
  const remote = await openRemote(ctx, body.profileName);
  assertServed(remote, NEEDED);
  const content = promotableContent(source);
  const currentHash = contentHash(content);
  if (currentHash !== body.sourceHash) {
    throw new ApiError(
      409,
      Codes.REMOTE_SOURCE_CHANGED,
      `Workbook "${source.name}" changed since the preview. Nothing was sent: preview again to see what would change now.`,
      { previewSourceHash: body.sourceHash, currentSourceHash: currentHash },
    );
  }
  const inputs: PromotionInputs = {
    ...request,
    sourceDeploymentId: deploymentId,
    sourceWorkbookId: source.id,
    sourceSlug: source.slug,
    content,
    sourceService: `Drydock${principal.email ? ` (${principal.email})` : ''}`,
  };
  return enqueueTransfer(ctx, principal, remote, { kind: PROMOTION_JOB, deploymentId, inputs, identity, idempotencyKey }, {
    kind: 'workbook-promotion',
    source_workbook_id: source.id,
    source_slug: source.slug,
    source_name: source.name,
    source_version: currentHash,
    target_deployment_id: body.targetDeploymentId,
    target_workbook_id: body.targetWorkbookId ?? null,
    target_version_before: body.targetHash,
  });
}

/** What a promotion has written on the remote so far (for undoing it). */
interface Written {
  id: number;
  created: boolean;
  published: boolean;
}

/**
 * Writes `content` into the remote workbook with this slug: name, description and draft, then the
 * published dashboard. `written` is kept up to date after each step, so a failure part-way knows
 * what to undo.
 */
async function writeContent(remote: Remote, deploymentId: number, slug: string, content: PromotableContent, written: { current: Written | null }, signal?: AbortSignal): Promise<Written> {
  const upserted = await callRemote(remote, wb.upsertWorkbookBySlug, {
    params: { deploymentId, slug },
    body: { name: content.name, description: content.description, dashboardDraft: content.dashboardDraft as never },
    signal,
  });
  const state: Written = { id: upserted.id, created: upserted.created, published: false };
  written.current = state;
  if (content.dashboardPublished) {
    // Publishing an explicit config also makes it the draft: put the draft back afterwards.
    await callRemote(remote, wb.publishWorkbookDashboard, { params: { deploymentId, workbookId: state.id }, body: { config: content.dashboardPublished as never }, signal });
    state.published = true;
    await callRemote(remote, wb.updateWorkbookDashboard, { params: { deploymentId, workbookId: state.id }, body: { dashboardDraft: content.dashboardDraft as never }, signal });
  }
  return state;
}

/**
 * Puts the remote back as it was: deletes a workbook the promotion created, or writes back what it
 * changed (the published dashboard first, since publishing also sets the draft, then name,
 * description and draft). True only when the remote's content hash is again the one from before.
 */
async function undo(remote: Remote, deploymentId: number, written: Written, before: RemoteWorkbook | null): Promise<boolean> {
  const signal = undoTimeout();
  try {
    if (written.created || !before) {
      await callRemote(remote, wb.deleteWorkbook, { params: { deploymentId, workbookId: written.id }, signal });
      return true;
    }
    const earlier = contentOf(before);
    const params = { deploymentId, workbookId: written.id };
    if (written.published && earlier.dashboardPublished) {
      await callRemote(remote, wb.publishWorkbookDashboard, { params, body: { config: earlier.dashboardPublished as never }, signal });
    }
    await callRemote(remote, wb.upsertWorkbookBySlug, {
      params: { deploymentId, slug: before.slug },
      body: { name: earlier.name, description: earlier.description, dashboardDraft: earlier.dashboardDraft as never },
      signal,
    });
    const now = await callRemote(remote, wb.getWorkbook, { params, signal });
    return contentHash(contentOf(now)) === contentHash(earlier);
  } catch {
    return false;
  }
}

/**
 * Best effort: the promotion itself succeeded; a remote that refuses to keep its origin (e.g. the
 * credential may edit but not manage that workbook) only loses the remote side of the provenance.
 */
async function recordOrigin(remote: Remote, jc: JobContext, input: Parameters<typeof callRemote<typeof recordWorkbookRemoteOrigin>>[2]): Promise<'RECORDED' | 'NOT_RECORDED'> {
  try {
    await callRemote(remote, recordWorkbookRemoteOrigin, input);
    return 'RECORDED';
  } catch (error) {
    if (jc.signal.aborted || !(error instanceof ApiError)) throw error;
    jc.log('The remote did not record the provenance', { code: error.code, detail: error.detail }, 'warn');
    return 'NOT_RECORDED';
  }
}

async function runPromotion(ctx: ServiceContext, job: Job<PromotionInputs>, jc: JobContext): Promise<unknown> {
  const input = job.inputs;
  const signal = jc.signal;
  updateTransfer(ctx, job.id, { status: 'RUNNING' });
  const written: { current: Written | null } = { current: null };
  let before: RemoteWorkbook | null = null;
  let remote: Remote | null = null;
  try {
    remote = await openRemote(ctx, input.profileName);
    jc.progress('reading the target', 10);
    const target = await resolveTarget(ctx, remote, { id: input.sourceWorkbookId, slug: input.sourceSlug }, input, signal);
    before = target.workbook;
    const targetContent = before ? contentOf(before) : null;
    const targetHash = targetContent ? contentHash(targetContent) : null;
    if (targetHash !== input.targetHash) {
      throw new JobFailure(
        Codes.REMOTE_TARGET_CHANGED,
        before === null
          ? 'The remote workbook the preview showed is gone. Nothing was written: preview again.'
          : input.targetHash === null
            ? `The remote deployment now has a workbook "${before.slug}" that the preview would have created. Nothing was written: preview again.`
            : 'The remote workbook changed since the preview. Nothing was written: preview again to see what would change now.',
        { status: 409 },
      );
    }
    const changes = changesBetween(input.content, targetContent);
    updateTransfer(ctx, job.id, {
      operation: before ? 'UPDATE' : 'CREATE',
      target_workbook_id: before?.id ?? null,
      target_slug: target.slug,
      target_name: before?.name ?? input.content.name,
      target_version_before: targetHash,
      changes: JSON.stringify(changes),
    });
    jc.progress('writing the workbook', 30);
    const state = await writeContent(remote, input.targetDeploymentId, target.slug, input.content, written, signal);
    jc.progress('checking the result', 80);
    const after = await callRemote(remote, wb.getWorkbook, { params: { deploymentId: input.targetDeploymentId, workbookId: state.id }, signal });
    const afterHash = contentHash(contentOf(after));
    let provenance: RemoteTransfer['remoteProvenance'] = 'NOT_SUPPORTED';
    if (serves(remote, recordWorkbookRemoteOrigin.operationId)) {
      jc.progress('recording provenance on the remote', 90);
      provenance = await recordOrigin(remote, jc, {
        params: { deploymentId: input.targetDeploymentId, workbookId: state.id },
        body: {
          transferId: job.id,
          sourceService: input.sourceService,
          sourceDeploymentId: input.sourceDeploymentId,
          sourceWorkbookId: input.sourceWorkbookId,
          sourceSlug: input.sourceSlug,
          sourceName: input.content.name,
          sourceHash: input.sourceHash,
          contentHash: afterHash,
        },
        signal,
      });
    }
    finishTransfer(ctx, job.id, 'COMPLETED', {
      target_workbook_id: state.id,
      target_slug: after.slug,
      target_name: after.name,
      target_version_after: afterHash,
      remote_provenance: provenance,
    });
    return { transferId: job.id, targetWorkbookId: state.id };
  } catch (error) {
    const rolledBack = written.current && remote ? await undo(remote, input.targetDeploymentId, written.current, before) : null;
    return endTransferWith(ctx, job.id, error, signal, rolledBack);
  }
}

export function registerPromotionJob(ctx: ServiceContext): void {
  // Not resumable: a second attempt after a crash could not tell what the first one wrote.
  getJobRunner(ctx).register<PromotionInputs, unknown>(PROMOTION_JOB, (job, jc) => runPromotion(ctx, job, jc) as Promise<JobOutcome<unknown>>, {
    resumable: false,
    maxAttempts: 1,
    concurrency: 2,
  });
}
