/**
 * A damaged model repository (issue 23, item 2), through the API: a damaged object is a 409
 * `REPOSITORY_DAMAGED` naming it — from the HTTP thread and from the model threads alike — never a
 * 500 DecompressionError; and a service that starts on a repository its last run did not close
 * cleanly checks it, repairs what it can (a blob still held as an uncommitted edit is written again;
 * a branch whose head needs a lost object goes back to its last whole head), says so in the
 * deployment's log, and answers 2xx for every branch; plain `git fsck --full` passes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepository } from '../../src-main/platform/repo';
import { buildPath, createDeployment, startWithSampleProject } from '../support/data-model';
import type { SampleProjectService } from '../support/sample-project';
import { gitFsck as fsck } from '../support/git-cli';

const CUBE = (name: string) => `cubes:\n  - name: ${name}\n    sql_table: public.${name}\n    measures:\n      - name: count\n        type: count\n`;

const dataDir = mkdtempSync(join(tmpdir(), 'drydock-damage-'));
let svc: SampleProjectService;
let id: number;
let devBranch: string;
const repoDir = () => join(dataDir, 'repos', String(id));
const objectFile = (oid: string) => join(repoDir(), 'objects', oid.slice(0, 2), oid.slice(2));
const files = (q = '') => `${buildPath(id)}/data-model/files${q}`;

/** What a kill -9 leaves: the repository still marked open by a run that began at `since`. */
const leaveOpen = (since: number) => writeFileSync(join(repoDir(), 'drydock-state.json'), JSON.stringify({ state: 'open', since }));

beforeAll(async () => {
  svc = await startWithSampleProject({ dataDir });
  id = await createDeployment(svc);
  devBranch = (await svc.call('POST', `${buildPath(id)}/dev-mode`)).body.branch.branchName;
});
afterAll(async () => {
  await svc.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a damaged object while the service runs', () => {
  it('reading it answers 409 REPOSITORY_DAMAGED naming the object, from the HTTP thread and from validation on a model thread', async () => {
    const content = CUBE('damaged_while_running');
    expect((await svc.call('PUT', files(), { body: { files: [{ path: 'model/cubes/d.yml', content }] } })).status).toBe(200);
    expect((await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'd' } })).status).toBe(200);
    const oid = await GitRepository.blobIdOf(content);
    truncateSync(objectFile(oid), 0);

    const read = await svc.call('GET', files('?path=model/cubes/d.yml'));
    expect(read.status, read.text).toBe(409);
    expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(read.body).toMatchObject({ code: 'REPOSITORY_DAMAGED', objects: [oid] });
    const validate = await svc.call('GET', `${buildPath(id)}/data-model/validate`);
    expect(validate.status, validate.text).toBe(409);
    expect(validate.body.code).toBe('REPOSITORY_DAMAGED');
    expect(validate.body.detail).toContain(oid);

    // Writing the same content again repairs it.
    expect((await svc.call('PUT', files(), { body: { files: [{ path: 'model/cubes/d2.yml', content }] } })).status).toBe(200);
    expect((await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'd again' } })).status).toBe(200);
    expect(statSync(objectFile(oid)).size).toBeGreaterThan(0);
    expect((await svc.call('GET', files('?path=model/cubes/d.yml'))).status).toBe(200);
    expect(fsck(repoDir()).status).toBe(0);
  });
});

describe('the check at start after an unclean stop', () => {
  let movedFrom: string;
  let movedTo: string;
  let rewritten: string;

  beforeAll(async () => {
    // An uncommitted edit whose blob a crashed commit left as an empty file…
    const pending = CUBE('pending_edit');
    expect((await svc.call('PUT', files(), { body: { files: [{ path: 'model/cubes/pending.yml', content: pending }] } })).status).toBe(200);
    rewritten = await GitRepository.blobIdOf(pending);
    // …and a commit of the dev branch whose new blob is lost for good.
    const lost = CUBE('lost_for_good');
    expect((await svc.call('PUT', files(), { body: { files: [{ path: 'model/cubes/lost.yml', content: lost }] } })).status).toBe(200);
    const since = Date.now() - 1_000;
    expect((await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'lost', paths: ['model/cubes/lost.yml'] } })).status).toBe(200);
    await svc.stop();

    const repo = GitRepository.at(repoDir());
    movedFrom = (await repo.head(devBranch))!;
    movedTo = (await repo.readCommit(movedFrom)).parents[0]!;
    truncateSync(objectFile(await GitRepository.blobIdOf(lost)), 0);
    mkdirSync(join(repoDir(), 'objects', rewritten.slice(0, 2)), { recursive: true });
    writeFileSync(objectFile(rewritten), '');
    leaveOpen(since);
    expect(fsck(repoDir()).status).not.toBe(0);
    svc = await startWithSampleProject({ dataDir });
  });

  it('every branch answers 2xx, the branch that needed the lost object is back at its last whole head, and git fsck passes', async () => {
    const branches = (await svc.call('GET', `${buildPath(id)}/branches`)).body.items.map((b: { branchName: string }) => b.branchName);
    for (const branch of branches) {
      const q = `branchName=${encodeURIComponent(branch)}`;
      for (const path of [files(`?${q}`), `${buildPath(id)}/data-model/file-hashes?${q}`, `${buildPath(id)}/data-model/validate?${q}`]) {
        const res = await svc.call('GET', path);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
    }
    expect((await svc.call('GET', files(`?branchName=${devBranch}`))).body.commit).toBe(movedTo);
    const check = fsck(repoDir());
    expect(check.status, check.stderr + check.stdout).toBe(0);
  });

  it('the uncommitted edit is still there and its blob was written again, so it commits', async () => {
    expect(statSync(objectFile(rewritten)).size).toBeGreaterThan(0);
    const commit = await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'pending after the crash' } });
    expect(commit.status, commit.text).toBe(200);
    expect(fsck(repoDir()).status).toBe(0);
  });

  it('the deployment log says what was repaired and what was lost', async () => {
    const logs = await svc.call('GET', `/api/v1/deployments/${id}/logs?first=50`);
    expect(logs.status, logs.text).toBe(200);
    const lines = logs.body.items.map((l: { message: string; level: string }) => `${l.level} ${l.message}`).join('\n');
    expect(lines).toContain(`object ${rewritten} was empty or damaged and was written again from an uncommitted edit`);
    expect(lines).toContain(`refs/heads/${devBranch} at ${movedFrom.slice(0, 12)} needed a damaged or missing object and was moved back to its last whole commit ${movedTo.slice(0, 12)}`);
    expect(lines).toMatch(/was removed \(its content is not known here\)/);
  });

  it('a clean stop marks the repository closed: the next start checks nothing', async () => {
    await svc.stop();
    expect(JSON.parse(readFileSync(join(repoDir(), 'drydock-state.json'), 'utf8')).state).toBe('closed');
    svc = await startWithSampleProject({ dataDir });
    expect((await svc.call('GET', files())).status).toBe(200);
    expect(JSON.parse(readFileSync(join(repoDir(), 'drydock-state.json'), 'utf8')).state).toBe('open');
  });
});
