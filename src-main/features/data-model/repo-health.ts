// Whether a deployment's repository stopped cleanly, and the check it gets when it did not (issue
// 23). Each repository holds `drydock-state.json`: `open` (with the time) while a service has it
// open, `closed` once that service stopped cleanly. The first time a service opens a repository it
// reads the state: closed → nothing to do; open → a crash: the objects and refs written since then
// are checked and repaired (platform/repo/repo-check.ts); no state at all (a repository from before
// this file existed) → everything is checked, up to a bound. Nothing else uses the repository
// meanwhile (the check holds its writer lock and openRepository waits for it). What was repaired and
// what could not be goes to the service log and the deployment's log.
import fs from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../../context';
import { GitRepository } from '../../platform/repo';
import { writeFileDurably } from '../../platform/repo/durable-fs';
import { checkRepository, type RepoCheckReport } from '../../platform/repo/repo-check';
import { appendDeploymentLog } from '../deployments';

const STATE_FILE = 'drydock-state.json';
/** Deployment log lines about removed objects, at most (the service log has them all). */
const MAX_REMOVED_LINES = 20;

type RepoState = { state: 'open'; since: number } | { state: 'closed'; at: number };

const checks = new WeakMap<ServiceContext, Map<string, Promise<void>>>();

function readState(gitdir: string): RepoState | null {
  try {
    const state = JSON.parse(fs.readFileSync(join(gitdir, STATE_FILE), 'utf8')) as RepoState;
    return state.state === 'open' || state.state === 'closed' ? state : null;
  } catch {
    return null;
  }
}

const writeState = (gitdir: string, state: RepoState) => writeFileDurably(join(gitdir, STATE_FILE), `${JSON.stringify(state)}\n`);

function checksOf(ctx: ServiceContext): Map<string, Promise<void>> {
  let map = checks.get(ctx);
  if (!map) {
    checks.set(ctx, (map = new Map()));
    const opened = map;
    // A clean stop: every repository this service opened is closed (runs after requests and jobs stopped).
    ctx.onClose(async () => {
      for (const [gitdir, check] of opened) {
        await check;
        if (fs.existsSync(join(gitdir, 'HEAD'))) await writeState(gitdir, { state: 'closed', at: Date.now() }).catch(() => undefined);
      }
    });
  }
  return map;
}

/**
 * Resolves once the repository of `deploymentId` is known to be sound for this run: checked (and
 * repaired) when its last run did not stop cleanly, then marked open. Once per repository and run;
 * never rejects (a check that fails is logged, and the repository is used as it is).
 */
export function ensureRepositoryChecked(ctx: ServiceContext, deploymentId: number, repo: GitRepository): Promise<void> {
  const map = checksOf(ctx);
  let check = map.get(repo.gitdir);
  if (!check) {
    check = repo.exclusive(() => checkAndOpen(ctx, deploymentId, repo));
    map.set(repo.gitdir, check);
  }
  return check;
}

/** Forgets a repository (its folder was removed with its deployment). */
export function forgetRepositoryCheck(ctx: ServiceContext, gitdir: string): void {
  checks.get(ctx)?.delete(gitdir);
}

async function checkAndOpen(ctx: ServiceContext, deploymentId: number, repo: GitRepository): Promise<void> {
  try {
    const state = readState(repo.gitdir);
    if (state?.state !== 'closed') {
      const since = state?.state === 'open' ? state.since : null;
      // Lock files from before this process started belong to the run that stopped uncleanly.
      const locksBefore = Date.now() - process.uptime() * 1000;
      const report = await checkRepository(repo.gitdir, { since, recover: recoverFromEdits(ctx, deploymentId), locksBefore });
      tell(ctx, deploymentId, report, since);
    }
    await writeState(repo.gitdir, { state: 'open', since: Date.now() });
  } catch (error) {
    ctx.log.error('the model repository check failed', { deploymentId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

/** Contents of blobs still held as uncommitted edits (SQLite), by blob id: what a damaged blob can be rewritten from. */
function recoverFromEdits(ctx: ServiceContext, deploymentId: number): (oid: string) => Uint8Array | null {
  let byId: Map<string, Uint8Array> | null = null;
  return (oid) => {
    if (!byId) {
      byId = new Map();
      const rows = ctx.db.prepare('SELECT content FROM model_working_files WHERE deployment_id = ? AND content IS NOT NULL').all(deploymentId) as { content: string }[];
      for (const { content } of rows) {
        const bytes = Buffer.from(content, 'utf8');
        byId.set(GitRepository.blobIdOfSync(bytes), bytes);
      }
    }
    return byId.get(oid) ?? null;
  };
}

function tell(ctx: ServiceContext, deploymentId: number, report: RepoCheckReport, since: number | null): void {
  const facts = {
    deploymentId,
    since: since === null ? 'never checked' : new Date(since).toISOString(),
    checkedObjects: report.checkedObjects,
    uncheckedObjects: report.uncheckedObjects,
    durationMs: Math.round(report.durationMs),
  };
  const repaired = [
    ...report.rewritten.map((oid) => `object ${oid} was empty or damaged and was written again from an uncommitted edit`),
    ...report.movedBack.map((m) => `${m.ref} at ${m.from.slice(0, 12)} needed a damaged or missing object and was moved back to its last whole commit ${m.to.slice(0, 12)}`),
    ...report.dropped.map((ref) => `${ref} needed a damaged or missing object and was dropped (the next fetch brings it back)`),
  ];
  const removed = report.removed.map((oid) => `object ${oid} was empty or damaged and was removed (its content is not known here)`);
  const unrepaired = report.unrepaired.map((u) => `${u.ref} (${u.head.slice(0, 12)}) needs object ${u.missing}, which is missing: pull it from the team's repository or restore a backup`);
  if (repaired.length === 0 && removed.length === 0 && unrepaired.length === 0) {
    ctx.log.info('model repository checked after an unclean stop: sound', { ...facts, leftovers: report.leftovers });
    return;
  }
  ctx.log.warn('model repository checked after an unclean stop', { ...facts, repaired, removed, unrepaired });
  const log = (level: 'warn' | 'error', message: string) => {
    try {
      appendDeploymentLog(ctx, deploymentId, { source: 'production', container: 'MAIN', level, message: `Repository check after an unclean stop: ${message}.` });
    } catch {
      // the service log has it
    }
  };
  for (const line of repaired) log('warn', line);
  // Removed objects nothing needs are many after some crashes: the first few say enough.
  for (const line of removed.slice(0, MAX_REMOVED_LINES)) log('warn', line);
  if (removed.length > MAX_REMOVED_LINES) log('warn', `${removed.length - MAX_REMOVED_LINES} more damaged objects were removed`);
  for (const line of unrepaired) log('error', line);
}

/** Checks, in the background after start, every deployment repository under `<dataDir>/repos` not opened yet. */
export async function checkAllRepositories(ctx: ServiceContext): Promise<void> {
  const root = join(ctx.dataDir, 'repos');
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^[1-9][0-9]*$/.test(name)) continue;
    const repo = GitRepository.at(join(root, name));
    if (repo.exists()) await ensureRepositoryChecked(ctx, Number(name), repo);
  }
}
