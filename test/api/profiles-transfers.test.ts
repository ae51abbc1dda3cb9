import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultyLink, serveClient, waitForTransfer, type ServeClient } from '../support/remote-pair';

// Cross-instance promotion and publish between two real `drydock serve` processes.
let local: ServeClient;
let remote: ServeClient;
let source: number; // local deployment
let target: number; // remote deployment

const deploymentBody = (name: string) => ({ name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });

beforeAll(async () => {
  [local, remote] = await Promise.all([serveClient('dd_transfers_local_key_0123456789abcdef'), serveClient('dd_transfers_remote_key_0123456789abcdef')]);
  source = (await local.call('POST', '/build/api/v1/deployments/', { body: deploymentBody('staging') })).body.id;
  target = (await remote.call('POST', '/build/api/v1/deployments/', { body: deploymentBody('production') })).body.id;
  expect((await local.call('POST', '/api/v1/profiles', { body: { name: 'prod', baseUrl: remote.url, credential: remote.key } })).status).toBe(201);
  expect((await local.call('POST', '/api/v1/profiles/prod/test')).body.profile.lastCheck.ok).toBe(true);
}, 120_000);
afterAll(async () => {
  await Promise.all([local?.close(), remote?.close()]);
});

const pos = (x = 0, y = 0) => ({ x, y, w: 4, h: 3 });
const wb = (deployment: number, id?: number) => `/api/v1/deployments/${deployment}/workbooks${id === undefined ? '' : `/${id}`}`;
let counter = 0;

async function localWorkbook(title = 'Board'): Promise<{ id: number; slug: string }> {
  const slug = `revenue-${++counter}`;
  const res = await local.call('POST', wb(source), {
    body: { name: `Revenue ${counter}`, slug, dashboardDraft: { title, widgets: [{ id: 'a', type: 'CHART', position: pos() }] } },
  });
  expect(res.status, res.text).toBe(201);
  expect((await local.call('POST', `${wb(source, res.body.id)}/publish`)).status).toBe(200);
  return { id: res.body.id, slug };
}

const preview = (workbookId: number, extra: Record<string, unknown> = {}) =>
  local.call('POST', `${wb(source, workbookId)}/remote-promotion-previews`, { body: { profileName: 'prod', targetDeploymentId: target, ...extra } });

async function promote(workbookId: number, previewed: { sourceHash: string; targetHash: string | null }, profileName = 'prod') {
  const res = await local.call('POST', `${wb(source, workbookId)}/remote-promotions`, {
    body: { profileName, targetDeploymentId: target, sourceHash: previewed.sourceHash, targetHash: previewed.targetHash },
  });
  expect(res.status, res.text).toBe(202);
  return waitForTransfer(local, res.body.id);
}

async function remoteBySlug(slug: string) {
  const list = await remote.call('GET', `${wb(target)}?search=${slug}&first=100`);
  return list.body.items.find((w: { slug: string }) => w.slug === slug) ?? null;
}

describe('promoting a workbook to another profile', () => {
  it('previews without writing, then creates it on the remote with provenance on both sides', async () => {
    const book = await localWorkbook();
    const pre = await preview(book.id);
    expect(pre.status, pre.text).toBe(200);
    expect(pre.body).toMatchObject({ profileName: 'prod', operation: 'CREATE', targetHash: null, target: { deploymentId: target, workbookId: null, slug: book.slug } });
    expect(pre.body.changes.dashboardPublished).toMatchObject({ presence: 'added', widgetsAdded: ['a'] });
    expect(await remoteBySlug(book.slug)).toBeNull();

    const done = await promote(book.id, pre.body);
    expect(done).toMatchObject({ status: 'COMPLETED', kind: 'workbook-promotion', operation: 'CREATE', remoteProvenance: 'RECORDED', error: null });
    const created = await remote.call('GET', wb(target, done.target.workbookId));
    const original = await local.call('GET', wb(source, book.id));
    expect(created.body.dashboardPublished).toEqual(original.body.dashboardPublished);
    expect(created.body.dashboardDraft).toEqual(original.body.dashboardDraft);
    expect(created.body.name).toBe(original.body.name);

    const origins = await remote.call('GET', `${wb(target, done.target.workbookId)}/remote-origins`);
    expect(origins.body.items).toHaveLength(1);
    expect(origins.body.items[0]).toMatchObject({ transferId: done.id, sourceDeploymentId: source, sourceWorkbookId: book.id, sourceHash: pre.body.sourceHash, modifiedSince: false });
    const history = await local.call('GET', `${wb(source, book.id)}/remote-promotions`);
    expect(history.body.items.map((t: { id: string }) => t.id)).toEqual([done.id]);

    const again = await preview(book.id);
    expect(again.body).toMatchObject({ operation: 'UPDATE', target: { workbookId: done.target.workbookId } });
    expect(again.body.changes.identical).toBe(true);
  });

  it('a repeated start with the same idempotencyKey answers the first transfer and promotes once', async () => {
    const book = await localWorkbook();
    const pre = await preview(book.id);
    const body = { profileName: 'prod', targetDeploymentId: target, sourceHash: pre.body.sourceHash, targetHash: pre.body.targetHash, idempotencyKey: `promote-${book.id}` };
    const first = await local.call('POST', `${wb(source, book.id)}/remote-promotions`, { body });
    expect(first.status, first.text).toBe(202);
    expect((await waitForTransfer(local, first.body.id)).status).toBe('COMPLETED');
    const second = await local.call('POST', `${wb(source, book.id)}/remote-promotions`, { body });
    expect(second.status, second.text).toBe(202);
    expect(second.body).toMatchObject({ id: first.body.id, kind: 'workbook-promotion', profileName: 'prod', source: { deploymentId: source, workbookId: book.id } });
    const history = await local.call('GET', `${wb(source, book.id)}/remote-promotions`);
    expect(history.body.items.map((t: { id: string }) => t.id)).toEqual([first.body.id]);
  });

  it('refuses a source changed since the preview (409) and sends nothing', async () => {
    const book = await localWorkbook();
    const pre = await preview(book.id);
    await local.call('PUT', `${wb(source, book.id)}/dashboard`, { body: { dashboardDraft: { title: 'edited after preview' } } });
    const res = await local.call('POST', `${wb(source, book.id)}/remote-promotions`, {
      body: { profileName: 'prod', targetDeploymentId: target, sourceHash: pre.body.sourceHash, targetHash: null },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('REMOTE_SOURCE_CHANGED');
    expect(await remoteBySlug(book.slug)).toBeNull();
  });

  it('fails with REMOTE_TARGET_CHANGED when the remote changed since the preview, writing nothing', async () => {
    const book = await localWorkbook();
    const pre = await preview(book.id);
    const meanwhile = await remote.call('PUT', `${wb(target)}/by-slug/${book.slug}`, { body: { name: 'Made on the remote meanwhile' } });
    expect(meanwhile.status, meanwhile.text).toBe(200);
    const done = await promote(book.id, pre.body);
    expect(done.status).toBe('FAILED');
    expect(done.error.code).toBe('REMOTE_TARGET_CHANGED');
    expect((await remote.call('GET', wb(target, meanwhile.body.id))).body.name).toBe('Made on the remote meanwhile');
  });

  it('a remote failing halfway leaves nothing: the workbook it had created is deleted again', async () => {
    const book = await localWorkbook();
    const link = await faultyLink(remote.url, (req) => (req.method === 'POST' && req.url?.endsWith('/publish') ? 500 : null));
    try {
      await local.call('POST', '/api/v1/profiles', { body: { name: 'flaky', baseUrl: link.url, credential: remote.key } });
      const pre = await local.call('POST', `${wb(source, book.id)}/remote-promotion-previews`, { body: { profileName: 'flaky', targetDeploymentId: target } });
      const done = await promote(book.id, pre.body, 'flaky');
      expect(done.status).toBe('FAILED');
      expect(done.error.code).toBe('PROFILE_REMOTE_FAILED');
      expect(done.rolledBack).toBe(true);
      expect(done.error.message).toContain('undone');
      expect(link.seen.some((line) => line.startsWith('PUT ') && line.includes('/by-slug/'))).toBe(true);
      expect(await remoteBySlug(book.slug)).toBeNull();
    } finally {
      await link.close();
    }
  });

  it('can be cancelled while it runs: what it wrote on the remote is undone', async () => {
    const book = await localWorkbook();
    // The remote never answers the publish step: the job waits there until it is cancelled.
    const link = await faultyLink(remote.url, (req) => (req.method === 'POST' && req.url?.endsWith('/publish') ? 'hang' : null));
    try {
      await local.call('POST', '/api/v1/profiles', { body: { name: 'stuck', baseUrl: link.url, credential: remote.key } });
      const pre = await local.call('POST', `${wb(source, book.id)}/remote-promotion-previews`, { body: { profileName: 'stuck', targetDeploymentId: target } });
      const started = await local.call('POST', `${wb(source, book.id)}/remote-promotions`, {
        body: { profileName: 'stuck', targetDeploymentId: target, sourceHash: pre.body.sourceHash, targetHash: null },
      });
      expect(started.status, started.text).toBe(202);
      const deadline = Date.now() + 20_000;
      while (!link.seen.some((line) => line.startsWith('POST') && line.endsWith('/publish'))) {
        if (Date.now() > deadline) throw new Error(`the publish step was never reached: ${link.seen.join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const cancel = await local.call('DELETE', `/api/v1/remote-transfers/${started.body.id}`);
      expect(cancel.status, cancel.text).toBe(200);
      const done = await waitForTransfer(local, started.body.id);
      expect(done).toMatchObject({ status: 'CANCELLED', rolledBack: true });
      expect(await remoteBySlug(book.slug)).toBeNull();
    } finally {
      await link.close();
    }
  });

  it('an update failing halfway puts the remote workbook back as it was', async () => {
    const book = await localWorkbook('first');
    const first = await promote(book.id, (await preview(book.id)).body);
    const before = await remote.call('GET', wb(target, first.target.workbookId));
    await local.call('PUT', `${wb(source, book.id)}/dashboard`, { body: { dashboardDraft: { title: 'second', widgets: [{ id: 'b', type: 'TEXT', position: pos(4) }] } } });
    await local.call('POST', `${wb(source, book.id)}/publish`);
    const link = await faultyLink(remote.url, (req) => (req.method === 'POST' && req.url?.endsWith('/publish') ? 503 : null));
    try {
      await local.call('POST', '/api/v1/profiles', { body: { name: 'flaky-update', baseUrl: link.url, credential: remote.key } });
      const pre = await local.call('POST', `${wb(source, book.id)}/remote-promotion-previews`, {
        body: { profileName: 'flaky-update', targetDeploymentId: target, targetWorkbookId: first.target.workbookId },
      });
      expect(pre.body.operation).toBe('UPDATE');
      const done = await promote(book.id, pre.body, 'flaky-update');
      expect(done.status).toBe('FAILED');
      // The draft was already written when the publish failed: it is written back.
      expect(done.rolledBack).toBe(true);
      const after = await remote.call('GET', wb(target, first.target.workbookId));
      expect(after.body.dashboardDraft).toEqual(before.body.dashboardDraft);
      expect(after.body.dashboardPublished).toEqual(before.body.dashboardPublished);
    } finally {
      await link.close();
    }
  });
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const B = (deployment: number) => `/build/api/v1/deployments/${deployment}`;

/** A local branch with one new cube file, committed through the local upload API. */
async function localBranchWithChange(branchName: string): Promise<string> {
  expect((await local.call('POST', `${B(source)}/branches`, { body: { branchName } })).status).toBe(201);
  const content = `cubes:\n  - name: extra_${branchName.replace(/-/g, '_')}\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n`;
  const path = `model/cubes/extra-${branchName}.yml`;
  const start = await local.call('POST', `${B(source)}/data-model/upload/start`, {
    body: { branchName, files: [{ path, size: Buffer.byteLength(content), sha256: sha(content) }], deletePaths: ['model/views/product_sales.yml'] },
  });
  expect(start.status, start.text).toBe(200);
  await local.call('POST', `${B(source)}/data-model/upload/file`, { body: { uploadId: start.body.uploadId, path, offset: 0, data: Buffer.from(content).toString('base64') } });
  const finish = await local.call('POST', `${B(source)}/data-model/upload/finish`, { body: { uploadId: start.body.uploadId } });
  expect(finish.status, finish.text).toBe(200);
  return path;
}

const publishPreview = (body: Record<string, unknown>) =>
  local.call('POST', `${B(source)}/remote-publish-previews`, { body: { profileName: 'prod', targetDeploymentId: target, ...body } });

async function publish(pre: { source: { commit: string }; target: { commit: string | null } }, body: Record<string, unknown>) {
  const res = await local.call('POST', `${B(source)}/remote-publishes`, {
    body: { profileName: 'prod', targetDeploymentId: target, sourceCommit: pre.source.commit, targetCommit: pre.target.commit, ...body },
  });
  expect(res.status, res.text).toBe(202);
  return waitForTransfer(local, res.body.id);
}

describe('publishing a model branch to another profile', () => {
  it('sends only what differs through the upload API: one remote commit that names its origin', async () => {
    const added = await localBranchWithChange('feature-a');
    const pre = await publishPreview({ branchName: 'feature-a', targetBranch: 'feature-a' });
    expect(pre.status, pre.text).toBe(200);
    expect(pre.body.target).toMatchObject({ branchName: 'feature-a', exists: false, commit: null });
    expect(pre.body.files).toEqual(expect.arrayContaining([{ path: added, status: 'added' }, { path: 'model/views/product_sales.yml', status: 'deleted' }]));
    expect(pre.body.files).toHaveLength(2);

    const done = await publish(pre.body, { branchName: 'feature-a', targetBranch: 'feature-a', message: 'Ship the extra cube' });
    expect(done).toMatchObject({ status: 'COMPLETED', kind: 'model-publish', operation: 'CREATE', remoteProvenance: 'IN_COMMIT_MESSAGE' });
    const [mine, theirs] = await Promise.all([
      local.call('GET', `${B(source)}/data-model/file-hashes?branchName=feature-a`),
      remote.call('GET', `${B(target)}/data-model/file-hashes?branchName=feature-a`),
    ]);
    expect(theirs.body.hashes).toEqual(mine.body.hashes);
    expect(theirs.body.commit).toBe(done.target.versionAfter);
    const branches = await remote.call('GET', `${B(target)}/branches?first=100`);
    const branch = branches.body.items.find((b: { branchName: string }) => b.branchName === 'feature-a');
    expect(branch.headCommit).toBe(done.target.versionAfter);
    // The remote's repository is real git: its commit names where it came from.
    const [commit] = await git.log({ fs, gitdir: join(remote.serve.dataDir, 'repos', String(target)), ref: 'feature-a', depth: 1 });
    expect(commit.commit.message).toContain('Ship the extra cube');
    expect(commit.commit.message).toContain(`Published-from: Drydock deployment ${source}, branch feature-a, commit ${pre.body.source.commit}`);

    const again = await publishPreview({ branchName: 'feature-a', targetBranch: 'feature-a' });
    expect(again.body).toMatchObject({ identical: true, files: [] });
  });

  it('a repeated start with the same idempotencyKey answers the first transfer and publishes once', async () => {
    await localBranchWithChange('feature-d');
    const pre = await publishPreview({ branchName: 'feature-d', targetBranch: 'feature-d' });
    const body = { profileName: 'prod', targetDeploymentId: target, branchName: 'feature-d', targetBranch: 'feature-d', sourceCommit: pre.body.source.commit, targetCommit: pre.body.target.commit, idempotencyKey: 'publish-feature-d' };
    const first = await local.call('POST', `${B(source)}/remote-publishes`, { body });
    expect(first.status, first.text).toBe(202);
    expect((await waitForTransfer(local, first.body.id)).status).toBe('COMPLETED');
    const second = await local.call('POST', `${B(source)}/remote-publishes`, { body });
    expect(second.status, second.text).toBe(202);
    expect(second.body).toMatchObject({ id: first.body.id, kind: 'model-publish', profileName: 'prod', source: { deploymentId: source, branchName: 'feature-d' } });
    const publishes = await local.call('GET', '/api/v1/remote-transfers?kind=model-publish&first=100');
    expect(publishes.body.items.filter((t: { source: { branchName: string } }) => t.source.branchName === 'feature-d')).toHaveLength(1);
  });

  it('refuses when the remote branch moved since the preview', async () => {
    await localBranchWithChange('feature-b');
    const pre = await publishPreview({ branchName: 'feature-b', targetBranch: 'feature-b' });
    expect((await remote.call('POST', `${B(target)}/branches`, { body: { branchName: 'feature-b' } })).status).toBe(201);
    const done = await publish(pre.body, { branchName: 'feature-b', targetBranch: 'feature-b' });
    expect(done.status).toBe('FAILED');
    expect(done.error.code).toBe('REMOTE_TARGET_CHANGED');
  });

  it('a failed upload leaves the remote as it was: the branch it created is removed', async () => {
    await localBranchWithChange('feature-c');
    const link = await faultyLink(remote.url, (req) => (req.url?.endsWith('/data-model/upload/finish') ? 500 : null));
    try {
      await local.call('POST', '/api/v1/profiles', { body: { name: 'flaky-upload', baseUrl: link.url, credential: remote.key } });
      const pre = await local.call('POST', `${B(source)}/remote-publish-previews`, {
        body: { profileName: 'flaky-upload', targetDeploymentId: target, branchName: 'feature-c', targetBranch: 'feature-c' },
      });
      const res = await local.call('POST', `${B(source)}/remote-publishes`, {
        body: { profileName: 'flaky-upload', targetDeploymentId: target, branchName: 'feature-c', targetBranch: 'feature-c', sourceCommit: pre.body.source.commit, targetCommit: null },
      });
      const done = await waitForTransfer(local, res.body.id);
      expect(done.status).toBe('FAILED');
      expect(done.rolledBack).toBe(true);
      const branches = await remote.call('GET', `${B(target)}/branches?first=100`);
      expect(branches.body.items.map((b: { branchName: string }) => b.branchName)).not.toContain('feature-c');
    } finally {
      await link.close();
    }
  });

  it('lists both kinds in the history, newest first; a finished transfer cannot be cancelled', async () => {
    const all = await local.call('GET', '/api/v1/remote-transfers?first=100');
    const kinds = new Set(all.body.items.map((t: { kind: string }) => t.kind));
    expect(kinds).toEqual(new Set(['workbook-promotion', 'model-publish']));
    const times = all.body.items.map((t: { createdAt: string }) => t.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const onlyPublishes = await local.call('GET', '/api/v1/remote-transfers?kind=model-publish');
    expect(onlyPublishes.body.items.every((t: { kind: string }) => t.kind === 'model-publish')).toBe(true);
    const cancel = await local.call('DELETE', `/api/v1/remote-transfers/${all.body.items[0].id}`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.code).toBe('TRANSFER_FINISHED');
  });
});
