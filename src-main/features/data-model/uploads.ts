import { randomUUID } from 'node:crypto';
import {
  DataModelErrorCodes as Codes,
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
import { authorOf, emitBranchCommit, guarded, logRepositoryEvent, openRepository, shortId } from './repository';
import type { PushReport } from '../../../src-shared/api/git-host';
import { pushAfterChange } from './upstream/auto-push';
import { assertFilePath, workingEdits } from './working';
import { runCompute } from '../../workers/run';

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

/** Marks this deployment's open uploads past their expiry as expired and frees their chunks. */
function expireStaleUploads(ctx: ServiceContext, deploymentId: number): void {
  const now = ctx.clock.now().toISOString();
  ctx.db.transaction(() => {
    const stale = ctx.db
      .prepare("UPDATE model_uploads SET state = 'expired' WHERE deployment_id = ? AND state = 'open' AND expires_at <= ? RETURNING id")
      .all(deploymentId, now) as { id: string }[];
    const drop = ctx.db.prepare('DELETE FROM model_upload_chunks WHERE upload_id = ?');
    for (const { id } of stale) drop.run(id);
  })();
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
    .prepare('SELECT byte_offset AS start, byte_offset + length(data) AS end FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? ORDER BY byte_offset')
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
  const check = (path: string, pointer: string) => {
    assertFilePath(path, pointer);
    if (seen.has(path)) throw new ApiError(400, Codes.DUPLICATE_PATH, `"${path}" is listed twice.`, { errors: [{ pointer, detail: 'listed twice' }] });
    seen.add(path);
  };
  files.forEach((f, i) => check(f.path, `/body/files/${i}/path`));
  deletePaths.forEach((p, i) => check(p, `/body/deletePaths/${i}`));
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

function assertNoEdits(ctx: ServiceContext, deploymentId: number, branch: string): void {
  const pending = workingEdits(ctx, deploymentId, branch).size;
  if (pending > 0) {
    throw new ApiError(409, Codes.UNCOMMITTED_CHANGES, `Branch "${branch}" has uncommitted changes; commit them before uploading to it.`);
  }
}

/** Stores one chunk; sending the same chunk again replaces it with the same bytes. */
export async function receiveChunk(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  input: { uploadId: string; path: string; offset: number; data: string },
): Promise<{ uploadId: string; file: UploadFileStatus; uploadComplete: boolean }> {
  requireUser(principal);
  const upload = loadUpload(ctx, deploymentId, principal, input.uploadId);
  const index = upload.files.findIndex((f) => f.path === input.path);
  if (index < 0) {
    throw new ApiError(400, Codes.UPLOAD_PATH_NOT_IN_MANIFEST, `"${input.path}" is not one of the files declared when upload "${input.uploadId}" started.`);
  }
  // Checking and decoding megabytes of base64 happens on a compute thread.
  const decoded = await runCompute(ctx, 'decodeBase64Chunk', input.data);
  if (decoded === null) {
    throw new ApiError(400, Codes.INVALID_CHUNK_DATA, '`data` must be the non-empty base64 encoding of the chunk bytes.', {
      errors: [{ pointer: '/body/data', detail: 'not base64' }],
    });
  }
  const bytes = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength);
  // The upload may have been finished or expired while the chunk was decoded.
  loadUpload(ctx, deploymentId, principal, input.uploadId);
  if (bytes.byteLength > MAX_CHUNK_BYTES) {
    throw new ApiError(413, Codes.CHUNK_TOO_LARGE, `A chunk may have at most ${MAX_CHUNK_BYTES} bytes; this one has ${bytes.byteLength}.`);
  }
  const size = upload.files[index].size;
  if (input.offset + bytes.byteLength > size) {
    throw new ApiError(400, Codes.CHUNK_OUT_OF_RANGE, `Bytes ${input.offset}–${input.offset + bytes.byteLength} lie beyond the ${size} bytes declared for "${input.path}".`);
  }
  ctx.db
    .prepare('INSERT OR REPLACE INTO model_upload_chunks (upload_id, file_index, byte_offset, data) VALUES (?, ?, ?, ?)')
    .run(input.uploadId, index, input.offset, bytes);
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
    const contents: Buffer[] = [];
    for (const [index, file] of upload.files.entries()) contents.push(await assemble(ctx, uploadId, index, file.size));
    // Hashing and the UTF-8 check of every file run on compute threads.
    const checks = await Promise.all(upload.files.map((file, i) => runCompute(ctx, 'inspectUploadFile', { bytes: contents[i]!, sha256: file.sha256 })));
    const mismatched = upload.files.filter((_, i) => !checks[i]!.matches);
    if (mismatched.length > 0) {
      // Drop the bad files' bytes so the client can send them again within the same upload.
      const drop = ctx.db.prepare('DELETE FROM model_upload_chunks WHERE upload_id = ? AND file_index = ?');
      ctx.db.transaction(() => mismatched.forEach((f) => drop.run(uploadId, upload.files.indexOf(f))))();
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
      ...upload.files.map((file, i) => ({ path: file.path, content: contents[i] as Uint8Array | null })),
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
 * A file's bytes from its chunks, read one chunk (at most 4 MB) at a time with a turn of the event
 * loop in between: reading a 20 MB upload from SQLite in one go would hold the HTTP thread.
 */
async function assemble(ctx: ServiceContext, uploadId: string, index: number, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  const offsets = ctx.db
    .prepare('SELECT byte_offset FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? ORDER BY byte_offset')
    .all(uploadId, index) as { byte_offset: number }[];
  const read = ctx.db.prepare('SELECT data FROM model_upload_chunks WHERE upload_id = ? AND file_index = ? AND byte_offset = ?');
  for (const { byte_offset: offset } of offsets) {
    await new Promise((resolve) => setImmediate(resolve));
    // A chunk dropped meanwhile leaves zeros, which the SHA-256 check then refuses.
    const chunk = read.get(uploadId, index, offset) as { data: Buffer } | undefined;
    chunk?.data.copy(buffer, offset);
  }
  return buffer;
}
