import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commitFiles,
  diffCommits,
  getBranchHead,
  getDeployBranch,
  onBranchCommit,
  readModelFiles,
  readModelFilesAt,
} from '../../src-main/features/data-model';
import { buildPath, createDeployment, ORDERS_YML, SALES_VIEW_YML, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';

// The functions other areas (builds, warehouse pulls, transform sync) call, over a real service and repository.

let svc: TestService;
let developer: TestUser;
let id: number;
const author = { name: 'Warehouse pull', email: 'pull@drydock.local' };

beforeAll(async () => {
  svc = await startWithSampleProject();
  developer = createUser(svc, 'developer');
  id = await createDeployment(svc);
});
afterAll(async () => {
  await svc.stop();
});

describe('data-model functions for other areas', () => {
  it('readModelFiles gives the model source files of the deploy branch, sorted, without other files', async () => {
    expect(await getDeployBranch(svc.ctx, id)).toBe('main');
    const files = await readModelFiles(svc.ctx, id, 'main');
    expect(files).toEqual([
      { path: 'model/cubes/orders.yml', content: ORDERS_YML },
      { path: 'model/views/sales.yml', content: SALES_VIEW_YML },
    ]);
    expect(await readModelFiles(svc.ctx, id)).toEqual(files);
  });

  it('commitFiles commits files and deletions in one commit, notifies listeners and reports no change as such', async () => {
    const seen: [number, string, string][] = [];
    const stop = onBranchCommit(svc.ctx, (...args) => seen.push(args));
    const before = await getBranchHead(svc.ctx, id, 'main');
    const result = await commitFiles(
      svc.ctx,
      id,
      'main',
      [
        { path: 'model/views/pulled.yml', content: 'views: []\n' },
        { path: 'model/views/sales.yml', content: null },
      ],
      'Pull warehouse views',
      author,
    );
    expect(result.changed).toBe(true);
    expect(result.changes).toEqual([
      { path: 'model/views/pulled.yml', status: 'added' },
      { path: 'model/views/sales.yml', status: 'deleted' },
    ]);
    expect(await getBranchHead(svc.ctx, id, 'main')).toBe(result.commit);
    expect(seen).toEqual([[id, 'main', result.commit]]);
    const again = await commitFiles(svc.ctx, id, 'main', [{ path: 'model/views/pulled.yml', content: 'views: []\n' }], 'same', author);
    expect(again).toEqual({ commit: result.commit, changed: false, changes: [] });
    expect(seen).toHaveLength(1);
    stop();
    await commitFiles(svc.ctx, id, 'main', [{ path: 'model/views/more.yml', content: 'views: []\n' }], 'after unsubscribe', author);
    expect(seen).toHaveLength(1);

    const diff = await diffCommits(svc.ctx, id, before, result.commit);
    expect(diff).toEqual([
      { path: 'model/views/pulled.yml', status: 'added', before: null, after: 'views: []\n' },
      { path: 'model/views/sales.yml', status: 'deleted', before: SALES_VIEW_YML, after: null },
    ]);
    expect((await readModelFilesAt(svc.ctx, id, before)).map((f) => f.path)).toEqual(['model/cubes/orders.yml', 'model/views/sales.yml']);
  });

  it('commitFiles refuses bad paths and unknown branches, committing nothing', async () => {
    const head = await getBranchHead(svc.ctx, id, 'main');
    await expect(commitFiles(svc.ctx, id, 'main', [{ path: '../x.yml', content: 'x' }], 'bad', author)).rejects.toMatchObject({ status: 400, code: 'INVALID_FILE_PATH' });
    await expect(commitFiles(svc.ctx, id, 'nope', [{ path: 'model/x.yml', content: 'x' }], 'bad', author)).rejects.toMatchObject({ status: 404, code: 'BRANCH_NOT_FOUND' });
    expect(await getBranchHead(svc.ctx, id, 'main')).toBe(head);
  });

  it('serialises concurrent writers of one repository so no commit is lost', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => commitFiles(svc.ctx, id, 'main', [{ path: `model/parallel/p${i}.yml`, content: `p: ${i}\n` }], `parallel ${i}`, author)),
    );
    expect(new Set(results.map((r) => r.commit)).size).toBe(6);
    const paths = (await readModelFiles(svc.ctx, id, 'main')).map((f) => f.path);
    for (let i = 0; i < 6; i++) expect(paths).toContain(`model/parallel/p${i}.yml`);
  });

  it('readModelFiles shows dev-mode edits only when asked', async () => {
    await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    const dev = `dev-${developer.id}`;
    await svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: developer.auth, body: { files: [{ path: 'model/cubes/draft.yml', content: 'cubes: []\n' }] } });
    expect((await readModelFiles(svc.ctx, id, dev)).map((f) => f.path)).not.toContain('model/cubes/draft.yml');
    expect((await readModelFiles(svc.ctx, id, dev, { includeWorkingEdits: true })).map((f) => f.path)).toContain('model/cubes/draft.yml');
  });

  it('commitFiles on a dev branch drops edits the commit made redundant', async () => {
    const dev = `dev-${developer.id}`;
    await commitFiles(svc.ctx, id, dev, [{ path: 'model/cubes/draft.yml', content: 'cubes: []\n' }], 'generated', author);
    const branch = (await svc.call('GET', `${buildPath(id)}/branches`)).body.items.find((b: { branchName: string }) => b.branchName === dev);
    expect(branch.hasUncommittedChanges).toBe(false);
  });
});
