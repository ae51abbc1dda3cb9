import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  caseTwinProblem,
  DataModelErrorCodes as Codes,
  existingPathProblem,
  MAX_CHUNK_BYTES,
  MAX_UPLOAD_BYTES,
  UPLOAD_TTL_HOURS,
  type FileChange,
  type UploadFileStatus,
  type UploadStatus,
} from '../../../src-shared/api/data-model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { assertBranchName, assertMayActOn, defaultBranch, loadBranch } from './branches';
import { authorOf, emitBranchCommit, guarded, logRepositoryEvent, openRepository, pathsRefused, shortId } from './repository';
import type { GitRepository } from '../../platform/repo';
import { caseTwinsOfTreeChange } from '../../platform/repo/path-index';
import type { PushReport } from '../../../src-shared/api/git-host';
import { pushAfterChange } from './upstream/auto-push';
import { assertFilePath, workingEdits } from './working';
import { runCompute } from '../../workers/run';
import type { StageResult, UploadPart } from '../../workers/upload-tasks';
import type { DecodedBase64 } from '../../platform/json/base64-field';
import { yieldToEventLoop } from '../../platform/jobs/types';

interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

interface UploadRow {
  id: string;
  deployment_id: number;
  branch: string;
  user_id: number | null;
  manifest: string;
  delete_paths: string;
  message: string | null;
  state: 'open' | 'finished' | 'expired';
  commit_oid: string | null;
  result: string | null;
  created_at: string;
  expires_at: string;
}

interface Upload {
  row: UploadRow;
  files: ManifestFile[];
  deletePaths: string[];
}

export interface StartUploadInput {
  branchName?: string;
  files: ManifestFile[];
  deletePaths?: string[];
  message?: string;
  uploadId?: string;
}

function requireUser(principal: Principal): number {
  if (principal.userId === null) throw new ApiError(403, Codes.USER_REQUIRED, 'Uploads belong to a user; this credential names none.');
  return principal.userId;
}

/**
 * Where the chunks of a deployment's uploads are kept: one folder per upload, one file per chunk
 * (its row in `model_upload_chunks` names it). Files are written by compute threads; a file counts
 * only once its row exists, so a chunk cut off half-way is never part of an upload.
 */
export const uploadsDir = (ctx: ServiceContext, deploymentId: number): string => join(ctx.dataDir, 'uploads', String(deploymentId));
const uploadDir = (ctx: ServiceContext, deploymentId: number, uploadId: string): string => join(uploadsDir(ctx, deploymentId), uploadId);

/** Removes a file or folder in the background; one already gone (or still in use elsewhere) is left to the next sweep. */
function removeQuietly(path: string): void {
  void rm(path, { recursive: true, force: true }).catch(() => undefined);
}

/** Marks this deployment's open uploads past their expiry as expired and frees their chunks. */
function expireStaleUploads(ctx: ServiceContext, deploymentId: number): void {
  const now = ctx.clock.now().toISOString();
  const stale = ctx.db.transaction(() => {
    const expired = ctx.db
      .prepare("UPDATE model_uploads SET state = 'expired' WHERE deployment_id = ? AND state = 'open' AND expires_at <= ? RETURNING id")
      .all(deploymentId, now) as { id: string }[];
    const drop = ctx.db.prepare('DELETE FROM model_upload_chunks WHERE upload_id = ?');
    for (const { id } of expired) drop.run(id);
    return expired;
  })();
  for (const { id } of stale) removeQuietly(uploadDir(ctx, deploymentId, id));
}

/**
 * Removes the folders of uploads that are no longer open (finished, expired or gone): what a crash
 * between a commit and the clean-up, or a chunk arriving as its upload finished, can leave behind.
 */
async function sweepUploadFolders(ctx: ServiceContext, deploymentId: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(uploadsDir(ctx, deploymentId));
  } catch {
    return;
  }
  const open = ctx.db.prepare("SELECT 1 FROM model_uploads WHERE id = ? AND deployment_id = ? AND state = 'open'");
  for (const name of names) if (open.get(name, deploymentId) === undefined) removeQuietly(join(uploadsDir(ctx, deploymentId), name));
}

function loadUpload(ctx: ServiceContext, deploymentId: number, principal: Principal, uploadId: string, allowFinished = false): Upload {
  expireStaleUploads(ctx, deploymentId);
  const row = ctx.db.prepare('SELECT * FROM model_uploads WHERE id = ? AND deployment_id = ?').get(uploadId, deploymentId) as UploadRow | undefined;
  if (!row) throw new ApiError(404, Codes.UPLOAD_NOT_FOUND, `Upload "${uploadId}" was not found in deployment ${deploymentId}.`);
  if (row.user_id !== principal.userId) throw new ApiError(403, Codes.UPLOAD_OF_ANOTHER_USER, `Upload "${uploadId}" was started by another user.`);
  if (row.state === 'expired') throw new ApiError(410, Codes.UPLOAD_EXPIRED, `Upload "${uploadId}" expired at ${row.expires_at}; start a new one.`);
  if (row.state === 'finished' && !allowFinished) throw new ApiError(409, Codes.UPLOAD_FINISHED, `Upload "${uploadId}" is already finished.`);
  return { row, files: JSON.parse(row.manifest) as ManifestFile[], deletePaths: JSON.parse(row.delete_paths) as string[] };
}

/** Received ranges of one file merged, and the gaps still missing. */
function fileStatus(ctx: ServiceContext, upload: Upload, index: number): UploadFileStatus {
  const file = upload.files[index];
  const chunks = ctx.db
    .prepare('SELECT byte_offset AS start, byte_offset + byte_length AS end FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? ORDER BY byte_offset')
    .all(upload.row.id, index) as { start: number; end: number }[];
  const missing: { start: number; end: number }[] = [];
  let covered = 0;
  let received = 0;
  for (const chunk of chunks) {
    if (chunk.start > covered) missing.push({ start: covered, end: chunk.start });
    if (chunk.end > covered) {
      received += chunk.end - Math.max(chunk.start, covered);
      covered = chunk.end;
    }
  }
  if (covered < file.size) missing.push({ start: covered, end: file.size });
  return { path: file.path, size: file.size, sha256: file.sha256, receivedBytes: received, complete: missing.length === 0, missingRanges: missing };
}

function statusOf(ctx: ServiceContext, upload: Upload): UploadStatus {
  const files = upload.files.map((_, i) => fileStatus(ctx, upload, i));
  return {
    uploadId: upload.row.id,
    branchName: upload.row.branch,
    state: upload.row.state,
    expiresAt: upload.row.expires_at,
    complete: files.every((f) => f.complete),
    files,
    deletePaths: upload.deletePaths,
    commit: upload.row.commit_oid,
  };
}

function validateManifest(files: ManifestFile[], deletePaths: string[]): void {
  const seen = new Set<string>();
  const check = (path: string, pointer: string, existing: boolean) => {
    // A path to delete only has to name a file (one whose name breaks a rule today can be deleted).
    if (!existing) assertFilePath(path, pointer);
    else {
      const shape = existingPathProblem(path);
      if (shape) throw new ApiError(400, Codes[shape.code], shape.detail, { errors: [{ pointer, detail: shape.detail }] });
    }
    if (seen.has(path)) throw new ApiError(400, Codes.DUPLICATE_PATH, `"${path}" is listed twice.`, { errors: [{ pointer, detail: 'listed twice' }] });
    seen.add(path);
  };
  files.forEach((f, i) => check(f.path, `/body/files/${i}/path`, false));
  deletePaths.forEach((p, i) => check(p, `/body/deletePaths/${i}`, true));
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (total > MAX_UPLOAD_BYTES) {
    throw new ApiError(413, Codes.UPLOAD_TOO_LARGE, `The upload declares ${total} bytes; at most ${MAX_UPLOAD_BYTES} may be uploaded at once.`);
  }
}

/** Starts an upload, or resumes an open one with the same manifest (`uploadId`). */
export async function startUpload(ctx: ServiceContext, deploymentId: number, principal: Principal, input: StartUploadInput): Promise<UploadStatus> {
  const userId = requireUser(principal);
  if (input.branchName !== undefined) assertBranchName(input.branchName, '/body/branchName');
  const deletePaths = input.deletePaths ?? [];
  validateManifest(input.files, deletePaths);
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const branch = defaultBranch(ctx, deploymentId, principal, deployBranch, input.branchName);
  const state = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
  assertMayActOn(state, principal, false);
  assertNoEdits(ctx, deploymentId, branch);
  await assertNoCaseTwins(repo, branch, input.files, deletePaths);

  const manifest = JSON.stringify(input.files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 })));
  const deletes = JSON.stringify(deletePaths);
  if (input.uploadId !== undefined) {
    const upload = loadUpload(ctx, deploymentId, principal, input.uploadId);
    if (upload.row.manifest !== manifest || upload.row.delete_paths !== deletes || upload.row.branch !== branch) {
      throw new ApiError(409, Codes.UPLOAD_MANIFEST_CHANGED, `Upload "${input.uploadId}" was started with other files or another branch; start a new upload.`);
    }
    return statusOf(ctx, upload);
  }
  expireStaleUploads(ctx, deploymentId);
  void sweepUploadFolders(ctx, deploymentId);
  const now = ctx.clock.now();
  const id = randomUUID();
  ctx.db
    .prepare(
      `INSERT INTO model_uploads (id, deployment_id, branch, user_id, manifest, delete_paths, message, state, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)`,
    )
    .run(id, deploymentId, branch, userId, manifest, deletes, input.message ?? null, now.toISOString(), new Date(now.getTime() + UPLOAD_TTL_HOURS * 3600_000).toISOString());
  return statusOf(ctx, loadUpload(ctx, deploymentId, principal, id));
}

/**
 * 400 `PATH_CASE_CONFLICT` when a new file of the upload would be the same file as another on macOS
 * or Windows (checked again at finish, by the commit). The branch has no uncommitted edits here.
 */
async function assertNoCaseTwins(repo: GitRepository, branch: string, files: ManifestFile[], deletePaths: string[]): Promise<void> {
  const { tree } = await repo.branchTree(branch);
  const changes = new Map<string, string | null>(deletePaths.map((path) => [path, null]));
  for (const file of files) changes.set(file.path, '');
  const twins = caseTwinsOfTreeChange(tree, changes);
  if (twins.length > 0) throw pathsRefused(twins.map(caseTwinProblem), 400);
}

function assertNoEdits(ctx: ServiceContext, deploymentId: number, branch: string): void {
  const pending = workingEdits(ctx, deploymentId, branch).size;
  if (pending > 0) {
    throw new ApiError(409, Codes.UNCOMMITTED_CHANGES, `Branch "${branch}" has uncommitted changes; commit them before uploading to it.`);
  }
}

/** True when `bytes` spans its whole buffer, which can then move to another thread. */
const whole = (bytes: Uint8Array): boolean => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;

/**
 * Stores one chunk; sending the same chunk again replaces it with the same bytes. `data` is the
 * base64 as sent, or (a large body) what a compute thread decoded while reading the body.
 */
export async function receiveChunk(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  input: { uploadId: string; path: string; offset: number; data: string | DecodedBase64 },
): Promise<{ uploadId: string; file: UploadFileStatus; uploadComplete: boolean }> {
  requireUser(principal);
  const upload = loadUpload(ctx, deploymentId, principal, input.uploadId);
  const index = upload.files.findIndex((f) => f.path === input.path);
  if (index < 0) {
    throw new ApiError(400, Codes.UPLOAD_PATH_NOT_IN_MANIFEST, `"${input.path}" is not one of the files declared when upload "${input.uploadId}" started.`);
  }
  const size = upload.files[index].size;
  // Checking, decoding and writing megabytes happen on a compute thread, into a new file of its own.
  const dir = uploadDir(ctx, deploymentId, input.uploadId);
  const partFile = `${index}-${input.offset}-${randomBytes(8).toString('hex')}.part`;
  const data = typeof input.data === 'string' ? input.data : input.data.bytes;
  // Decoded bytes move to the writing thread (they came from one): nothing is copied here.
  const transferList = typeof data !== 'string' && data !== null && whole(data) ? [data.buffer as ArrayBuffer] : undefined;
  const stored =
    data === null ? null : await runCompute(ctx, 'storeUploadChunk', { data, file: join(dir, partFile), maxBytes: MAX_CHUNK_BYTES, room: size - input.offset }, { transferList });
  if (stored === null) {
    throw new ApiError(400, Codes.INVALID_CHUNK_DATA, '`data` must be the non-empty base64 encoding of the chunk bytes.', {
      errors: [{ pointer: '/body/data', detail: 'not base64' }],
    });
  }
  try {
    // The upload may have been finished or expired while the chunk was decoded.
    loadUpload(ctx, deploymentId, principal, input.uploadId);
    if (stored.length > MAX_CHUNK_BYTES) {
      throw new ApiError(413, Codes.CHUNK_TOO_LARGE, `A chunk may have at most ${MAX_CHUNK_BYTES} bytes; this one has ${stored.length}.`);
    }
    if (input.offset + stored.length > size) {
      throw new ApiError(400, Codes.CHUNK_OUT_OF_RANGE, `Bytes ${input.offset}–${input.offset + stored.length} lie beyond the ${size} bytes declared for "${input.path}".`);
    }
    // Sending a chunk again replaces the one at its offset (and its file).
    const replaced = ctx.db.transaction(() => {
      const previous = ctx.db
        .prepare('SELECT part_file FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? AND byte_offset = ?')
        .get(input.uploadId, index, input.offset) as { part_file: string | null } | undefined;
      ctx.db
        .prepare('INSERT OR REPLACE INTO model_upload_chunks (upload_id, file_index, byte_offset, byte_length, part_file, data) VALUES (?, ?, ?, ?, ?, NULL)')
        .run(input.uploadId, index, input.offset, stored.length, partFile);
      return previous?.part_file ?? null;
    })();
    if (replaced !== null) removeQuietly(join(dir, replaced));
  } catch (error) {
    if (stored.stored) removeQuietly(join(dir, partFile));
    throw error;
  }
  const file = fileStatus(ctx, upload, index);
  const uploadComplete = upload.files.every((_, i) => (i === index ? file.complete : fileStatus(ctx, upload, i).complete));
  return { uploadId: input.uploadId, file, uploadComplete };
}

export interface FinishedUpload {
  uploadId: string;
  branchName: string;
  state: 'finished';
  commit: string;
  changed: boolean;
  changes: FileChange[];
  push?: PushReport;
}

/**
 * Checks every file is complete and matches its SHA-256, then commits all files and deletions in
 * one commit. Any failure leaves the branch untouched. Finishing again answers the same result.
 */
export async function finishUpload(ctx: ServiceContext, deploymentId: number, principal: Principal, uploadId: string): Promise<FinishedUpload> {
  requireUser(principal);
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const finished = await repo.exclusive(async (): Promise<FinishedUpload> => {
    const upload = loadUpload(ctx, deploymentId, principal, uploadId, true);
    const branch = upload.row.branch;
    if (upload.row.state === 'finished') {
      const stored = JSON.parse(upload.row.result ?? '{"changed":false,"changes":[]}') as { changed: boolean; changes: FileChange[] };
      return { uploadId, branchName: branch, state: 'finished' as const, commit: upload.row.commit_oid!, ...stored };
    }
    const incomplete = upload.files.map((_, i) => fileStatus(ctx, upload, i)).filter((f) => !f.complete);
    if (incomplete.length > 0) {
      throw new ApiError(409, Codes.UPLOAD_INCOMPLETE, `${incomplete.length} file(s) are not fully uploaded: ${incomplete.map((f) => f.path).join(', ')}.`, {
        missing: incomplete.map((f) => ({ path: f.path, missingRanges: f.missingRanges })),
      });
    }
    // Assembling, hashing, the UTF-8 check and writing each file's blob run on compute threads.
    const checks = await Promise.all(upload.files.map((file, i) => stage(ctx, upload, i, repo.gitdir)));
    const mismatched = upload.files.filter((_, i) => !checks[i]!.matches);
    if (mismatched.length > 0) {
      // Drop the bad files' bytes so the client can send them again within the same upload.
      const partsOf = ctx.db.prepare('SELECT part_file FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? AND part_file IS NOT NULL');
      const drop = ctx.db.prepare('DELETE FROM model_upload_chunks WHERE upload_id = ? AND file_index = ?');
      const files = ctx.db.transaction(() =>
        mismatched.flatMap((f) => {
          const index = upload.files.indexOf(f);
          const parts = partsOf.all(uploadId, index) as { part_file: string }[];
          drop.run(uploadId, index);
          return parts.map((p) => p.part_file);
        }),
      )();
      for (const file of files) removeQuietly(join(uploadDir(ctx, deploymentId, uploadId), file));
      throw new ApiError(422, Codes.UPLOAD_HASH_MISMATCH, `The received bytes do not match the declared SHA-256 of: ${mismatched.map((f) => f.path).join(', ')}. Send those files again.`, {
        paths: mismatched.map((f) => f.path),
      });
    }
    const notText = upload.files.filter((_, i) => !checks[i]!.text);
    if (notText.length > 0) {
      throw new ApiError(422, Codes.FILE_NOT_TEXT, `Model files must be UTF-8 text: ${notText.map((f) => f.path).join(', ')}.`, { paths: notText.map((f) => f.path) });
    }

    const state = await loadBranch(ctx, repo, deploymentId, deployBranch, branch);
    assertMayActOn(state, principal, false);
    assertNoEdits(ctx, deploymentId, branch);
    const { tree } = await repo.branchTree(branch);
    const writes = [
      ...upload.files.map((file, i) => ({ path: file.path, blob: checks[i]!.blob! })),
      ...upload.deletePaths.filter((p) => tree.has(p)).map((path) => ({ path, content: null })),
    ];
    const message = upload.row.message ?? `Upload ${upload.files.length} file(s)${upload.deletePaths.length ? `, remove ${upload.deletePaths.length}` : ''}`;
    const result = await guarded(() => repo.commitChanges(branch, writes, { message, author: authorOf(principal) }));
    const changes = result.changes.map((c) => ({ path: c.path, status: c.status }));
    ctx.db.transaction(() => {
      ctx.db
        .prepare("UPDATE model_uploads SET state = 'finished', commit_oid = ?, result = ?, finished_at = ? WHERE id = ?")
        .run(result.commit, JSON.stringify({ changed: result.changed, changes }), ctx.clock.now().toISOString(), uploadId);
      ctx.db.prepare('DELETE FROM model_upload_chunks WHERE upload_id = ?').run(uploadId);
    })();
    removeQuietly(uploadDir(ctx, deploymentId, uploadId));
    if (result.changed) {
      logRepositoryEvent(
        ctx,
        deploymentId,
        branch,
        deployBranch,
        `Upload committed ${shortId(result.commit)} on "${branch}" (${changes.length} file(s) changed) by ${principal.email ?? 'an API client'}.`,
      );
      emitBranchCommit(ctx, deploymentId, branch, result.commit);
    }
    return { uploadId, branchName: branch, state: 'finished' as const, commit: result.commit, changed: result.changed, changes };
  });
  if (!finished.changed) return finished;
  const push = await pushAfterChange(ctx, deploymentId, finished.branchName);
  return push ? { ...finished, push } : finished;
}

/**
 * Checks one file of an upload on a compute thread (see `stageUploadFile`): its parts are named to
 * the thread, which reads them, so the bytes never cross the HTTP thread. Chunks kept in the database
 * (received before chunks moved to files) are read here, one row at a time. A part replaced while the
 * thread read (the same chunk sent again) is read anew.
 */
async function stage(ctx: ServiceContext, upload: Upload, index: number, gitdir: string): Promise<Extract<StageResult, { vanished: false }>> {
  const file = upload.files[index]!;
  const dir = uploadDir(ctx, upload.row.deployment_id, upload.row.id);
  for (let attempt = 1; ; attempt++) {
    const rows = ctx.db
      .prepare('SELECT byte_offset, part_file FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? ORDER BY byte_offset')
      .all(upload.row.id, index) as { byte_offset: number; part_file: string | null }[];
    const legacy = ctx.db.prepare('SELECT data FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? AND byte_offset = ?');
    const parts: UploadPart[] = [];
    for (const row of rows) {
      if (row.part_file !== null) {
        parts.push({ offset: row.byte_offset, file: join(dir, row.part_file) });
        continue;
      }
      await yieldToEventLoop();
      // A chunk dropped meanwhile leaves zeros, which the SHA-256 check then refuses.
      const chunk = legacy.get(upload.row.id, index, row.byte_offset) as { data: Buffer | null } | undefined;
      if (chunk?.data) parts.push({ offset: row.byte_offset, bytes: chunk.data });
    }
    const result = await runCompute(ctx, 'stageUploadFile', { parts, size: file.size, sha256: file.sha256, gitdir });
    if (!result.vanished) return result;
    if (attempt >= 5) return { vanished: false, matches: false, text: true, blob: null };
  }
}
