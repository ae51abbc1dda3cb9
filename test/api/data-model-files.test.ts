import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, createDeployment, ORDERS_YML, SALES_VIEW_YML, sha256, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';
import { gitBytes, gitText } from '../support/git-cli';

let svc: TestService;
let developer: TestUser;
let otherDeveloper: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  svc = await startWithSampleProject();
  developer = createUser(svc, 'developer', { name: 'Dev One', email: 'dev1@example.com' });
  otherDeveloper = createUser(svc, 'developer');
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => {
  await svc.stop();
});

const files = (id: number, query = '') => `${buildPath(id)}/data-model/files${query}`;

describe('model repository', () => {
  it('is a real git repository under the data dir whose deploy branch starts with the sample project’s model files', async () => {
    const id = await createDeployment(svc);
    const res = await svc.call('GET', files(id));
    expect(res.status).toBe(200);
    expect(res.body.branchName).toBe('main');
    expect(res.body.items.map((f: { path: string }) => f.path)).toEqual(['model/cubes/orders.yml', 'model/views/sales.yml']);
    const gitdir = join(svc.dataDir, 'repos', String(id));
    expect(existsSync(gitdir)).toBe(true);
    const log = gitText(gitdir, 'log', '--format=%s', 'main');
    expect(log.trim()).toBe('Initial model (sample project)');
    expect(gitBytes(gitdir, 'show', 'main:model/cubes/orders.yml').toString('utf8')).toBe(ORDERS_YML);
  });

  it('is removed with its deployment', async () => {
    const id = await createDeployment(svc);
    await svc.call('GET', files(id));
    const gitdir = join(svc.dataDir, 'repos', String(id));
    expect(existsSync(gitdir)).toBe(true);
    expect((await svc.call('DELETE', `/api/v1/deployments/${id}`)).status).toBe(204);
    expect(existsSync(gitdir)).toBe(false);
  });

  it('answers 404 for files of an unknown deployment', async () => {
    const res = await svc.call('GET', files(999999));
    expect(res.status).toBe(404);
  });
});

describe('GET data-model/files', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
  });

  it('lists the files of a branch with size and SHA-256', async () => {
    const res = await svc.call('GET', files(id), { auth: viewer.auth });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toEqual({ path: 'model/cubes/orders.yml', size: Buffer.byteLength(ORDERS_YML), sha256: sha256(ORDERS_YML), uncommitted: false });
    expect(res.body.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body.hasUncommittedChanges).toBe(false);
  });

  it('reads one file with `path`', async () => {
    const res = await svc.call('GET', files(id, '?path=model/views/sales.yml'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: 'model/views/sales.yml', content: SALES_VIEW_YML, sha256: sha256(SALES_VIEW_YML), uncommitted: false, branchName: 'main' });
  });

  it('paginates the list with first/after', async () => {
    const first = await svc.call('GET', files(id, '?first=1'));
    expect(first.body.items).toHaveLength(1);
    expect(first.body.pageInfo.hasNextPage).toBe(true);
    const second = await svc.call('GET', files(id, `?first=1&after=${first.body.pageInfo.endCursor}`));
    expect(second.body.items.map((f: { path: string }) => f.path)).toEqual(['model/views/sales.yml']);
    expect(second.body.pageInfo.hasNextPage).toBe(false);
  });

  it('answers 404 FILE_NOT_FOUND for a missing file and 404 BRANCH_NOT_FOUND for a missing branch', async () => {
    expect((await svc.call('GET', files(id, '?path=model/nope.yml'))).body.code).toBe('FILE_NOT_FOUND');
    const res = await svc.call('GET', files(id, '?branchName=nope'));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('BRANCH_NOT_FOUND');
  });

  it('refuses an invalid branch name or path with 400', async () => {
    expect((await svc.call('GET', files(id, '?branchName=a..b'))).body.code).toBe('INVALID_BRANCH_NAME');
    const res = await svc.call('GET', files(id, `?path=${encodeURIComponent('../etc/passwd.yml')}`));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_FILE_PATH');
  });

  it('needs a credential', async () => {
    expect((await svc.call('GET', files(id), { auth: null })).status).toBe(401);
  });
});

describe('writes only on dev-mode branches', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
  });

  it('refuses PUT on the deploy branch with 409 BRANCH_NOT_IN_DEV_MODE and changes nothing', async () => {
    const before = await svc.call('GET', files(id, '?path=model/cubes/orders.yml'));
    const res = await svc.call('PUT', files(id), { body: { files: [{ path: 'model/cubes/orders.yml', content: 'cubes: []\n' }] } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('BRANCH_NOT_IN_DEV_MODE');
    const after = await svc.call('GET', files(id, '?path=model/cubes/orders.yml'));
    expect(after.body).toEqual(before.body);
  });

  it('refuses PUT, DELETE and rename on a shared branch that is not in dev mode', async () => {
    expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'feature-a' } })).status).toBe(201);
    const put = await svc.call('PUT', files(id, '?branchName=feature-a'), { body: { files: [{ path: 'model/x.yml', content: 'x' }] } });
    expect(put.body.code).toBe('BRANCH_NOT_IN_DEV_MODE');
    expect((await svc.call('DELETE', files(id, '?branchName=feature-a&path=model/cubes/orders.yml'))).body.code).toBe('BRANCH_NOT_IN_DEV_MODE');
    const rename = await svc.call('POST', `${files(id)}/rename?branchName=feature-a`, { body: { path: 'model/cubes/orders.yml', newPath: 'model/o.yml' } });
    expect(rename.body.code).toBe('BRANCH_NOT_IN_DEV_MODE');
  });

  it('refuses writes to a viewer with 403', async () => {
    const res = await svc.call('PUT', files(id), { auth: viewer.auth, body: { files: [{ path: 'model/x.yml', content: 'x' }] } });
    expect(res.status).toBe(403);
    expect((await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: viewer.auth })).status).toBe(403);
  });
});

describe('dev mode', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
  });

  it('creates a personal dev branch forked from the deploy branch, idempotently', async () => {
    const main = await svc.call('GET', files(id));
    const first = await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(true);
    expect(first.body.branch).toMatchObject({
      branchName: `dev-${developer.id}`,
      parentBranch: 'main',
      kind: 'personal',
      isDevMode: true,
      ownerUserId: developer.id,
      headCommit: main.body.commit,
      hasUncommittedChanges: false,
    });
    const again = await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    expect(again.body.created).toBe(false);
    expect(again.body.branch.branchName).toBe(`dev-${developer.id}`);
  });

  it('reads the caller’s dev branch by default while in dev mode', async () => {
    const res = await svc.call('GET', files(id), { auth: developer.auth });
    expect(res.body.branchName).toBe(`dev-${developer.id}`);
    expect((await svc.call('GET', files(id), { auth: otherDeveloper.auth })).body.branchName).toBe('main');
  });

  it('keeps written files as uncommitted edits of the dev branch, leaving git and the deploy branch unchanged', async () => {
    const dev = `dev-${developer.id}`;
    const headBefore = (await svc.call('GET', files(id, `?branchName=${dev}`))).body.commit;
    const res = await svc.call('PUT', files(id), {
      auth: developer.auth,
      body: { files: [{ path: 'model/cubes/users.yml', content: 'cubes: []\n' }, { path: 'model/views/sales.yml', content: 'views: []\n' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      branchName: dev,
      headCommit: headBefore,
      uncommittedChanges: [
        { path: 'model/cubes/users.yml', status: 'added' },
        { path: 'model/views/sales.yml', status: 'modified' },
      ],
    });
    const read = await svc.call('GET', files(id, '?path=model/views/sales.yml'), { auth: developer.auth });
    expect(read.body).toMatchObject({ content: 'views: []\n', uncommitted: true, commit: headBefore });
    expect((await svc.call('GET', files(id, '?branchName=main&path=model/views/sales.yml'))).body.content).toBe(SALES_VIEW_YML);
    const gitdir = join(svc.dataDir, 'repos', String(id));
    expect(gitText(gitdir, 'rev-parse', dev)).toBe(headBefore);
  });

  it('drops an edit that restores the committed content', async () => {
    const res = await svc.call('PUT', files(id), { auth: developer.auth, body: { files: [{ path: 'model/views/sales.yml', content: SALES_VIEW_YML }] } });
    expect(res.body.uncommittedChanges).toEqual([{ path: 'model/cubes/users.yml', status: 'added' }]);
  });

  it('deletes and renames files as uncommitted edits', async () => {
    const del = await svc.call('DELETE', files(id, '?path=model/views/sales.yml'), { auth: developer.auth });
    expect(del.status).toBe(200);
    expect(del.body.uncommittedChanges).toContainEqual({ path: 'model/views/sales.yml', status: 'deleted' });
    const rename = await svc.call('POST', `${files(id)}/rename`, { auth: developer.auth, body: { path: 'model/cubes/users.yml', newPath: 'model/cubes/people.yml' } });
    expect(rename.status).toBe(200);
    expect(rename.body.uncommittedChanges).toEqual([
      { path: 'model/cubes/people.yml', status: 'added' },
      { path: 'model/views/sales.yml', status: 'deleted' },
    ]);
    const list = await svc.call('GET', files(id), { auth: developer.auth });
    expect(list.body.items.map((f: { path: string }) => f.path)).toEqual(['model/cubes/orders.yml', 'model/cubes/people.yml']);
    expect(list.body.hasUncommittedChanges).toBe(true);
  });

  it('answers 404 FILE_NOT_FOUND for deleting or renaming a missing file and 409 FILE_EXISTS for renaming onto a file', async () => {
    expect((await svc.call('DELETE', files(id, '?path=model/none.yml'), { auth: developer.auth })).body.code).toBe('FILE_NOT_FOUND');
    const missing = await svc.call('POST', `${files(id)}/rename`, { auth: developer.auth, body: { path: 'model/none.yml', newPath: 'model/n.yml' } });
    expect(missing.status).toBe(404);
    const onto = await svc.call('POST', `${files(id)}/rename`, { auth: developer.auth, body: { path: 'model/cubes/people.yml', newPath: 'model/cubes/orders.yml' } });
    expect(onto.status).toBe(409);
    expect(onto.body.code).toBe('FILE_EXISTS');
  });

  it('refuses paths outside the repository, absolute paths, other file types, duplicates and oversized files', async () => {
    const put = (path: string, content = 'x') => svc.call('PUT', files(id), { auth: developer.auth, body: { files: [{ path, content }] } });
    for (const bad of ['../outside.yml', 'model/../../x.yml', '/etc/x.yml', 'model//x.yml', 'model\\x.yml']) {
      const res = await put(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.code, bad).toBe('INVALID_FILE_PATH');
    }
    const dotGit = await put('.git/config.yml');
    expect(dotGit.status).toBe(400);
    expect(dotGit.body.code).toBe('PATH_RESERVED_BY_GIT');
    const exe = await put('model/tool.exe');
    expect(exe.body.code).toBe('FILE_TYPE_NOT_ALLOWED');
    const dup = await svc.call('PUT', files(id), {
      auth: developer.auth,
      body: { files: [{ path: 'model/a.yml', content: '1' }, { path: 'model/a.yml', content: '2' }] },
    });
    expect(dup.body.code).toBe('DUPLICATE_PATH');
    const big = await put('model/big.yml', 'x'.repeat(5 * 1024 * 1024 + 1));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('FILE_TOO_LARGE');
    expect((await svc.call('GET', files(id, '?path=model/a.yml'), { auth: developer.auth })).status).toBe(404);
  });

  it('refuses a file where a folder is with 409 PATH_CONFLICT', async () => {
    const res = await svc.call('PUT', files(id), { auth: developer.auth, body: { files: [{ path: 'model/cubes/orders.yml/x.yml', content: 'x' }] } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PATH_CONFLICT');
  });

  it('refuses writes to another user’s dev branch with 403 DEV_BRANCH_OF_ANOTHER_USER', async () => {
    const res = await svc.call('PUT', files(id, `?branchName=dev-${developer.id}`), {
      auth: otherDeveloper.auth,
      body: { files: [{ path: 'model/x.yml', content: 'x' }] },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DEV_BRANCH_OF_ANOTHER_USER');
  });

  it('leaving dev mode keeps the edits but refuses writes until the user comes back', async () => {
    const left = await svc.call('DELETE', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    expect(left.status).toBe(200);
    expect(left.body).toEqual({ isDevMode: false, branchName: `dev-${developer.id}` });
    const put = await svc.call('PUT', files(id, `?branchName=dev-${developer.id}`), { auth: developer.auth, body: { files: [{ path: 'model/x.yml', content: 'x' }] } });
    expect(put.body.code).toBe('BRANCH_NOT_IN_DEV_MODE');
    expect((await svc.call('GET', files(id), { auth: developer.auth })).body.branchName).toBe('main');
    const back = await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    expect(back.body).toMatchObject({ created: false, branch: { isDevMode: true, hasUncommittedChanges: true } });
    expect((await svc.call('GET', files(id, '?path=model/cubes/people.yml'), { auth: developer.auth })).status).toBe(200);
  });

  it('forks from another parent with `branchName`, keeping one active dev branch per user', async () => {
    expect((await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'feature/b' } })).status).toBe(201);
    const res = await svc.call('POST', `${buildPath(id)}/dev-mode?branchName=feature/b`, { auth: developer.auth });
    expect(res.body).toMatchObject({ created: true, branch: { branchName: `dev-${developer.id}-feature-b`, parentBranch: 'feature/b', isDevMode: true } });
    const branches = (await svc.call('GET', `${buildPath(id)}/branches`)).body.items as { branchName: string; isDevMode: boolean }[];
    expect(branches.filter((b) => b.isDevMode).map((b) => b.branchName)).toEqual([`dev-${developer.id}-feature-b`]);
  });

  it('answers 404 for dev mode from an unknown parent and 409 for a personal parent', async () => {
    expect((await svc.call('POST', `${buildPath(id)}/dev-mode?branchName=nope`, { auth: otherDeveloper.auth })).body.code).toBe('BRANCH_NOT_FOUND');
    const res = await svc.call('POST', `${buildPath(id)}/dev-mode?branchName=dev-${developer.id}`, { auth: otherDeveloper.auth });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('INVALID_PARENT_BRANCH');
  });

  it('leaving dev mode when not in it answers with no branch', async () => {
    const res = await svc.call('DELETE', `${buildPath(id)}/dev-mode`, { auth: viewer.auth });
    expect(res.status).toBe(403);
    const other = await svc.call('DELETE', `${buildPath(id)}/dev-mode`, { auth: otherDeveloper.auth });
    expect(other.body).toEqual({ isDevMode: false, branchName: null });
  });
});

describe('a file and a folder never share a path, counting committed files and uncommitted edits', () => {
  let id: number;
  const put = (...paths: string[]) =>
    svc.call('PUT', files(id), { auth: otherDeveloper.auth, body: { files: paths.map((path) => ({ path, content: 'cubes: []\n' })) } });
  const del = (path: string) => svc.call('DELETE', files(id, `?path=${encodeURIComponent(path)}`), { auth: otherDeveloper.auth });
  beforeAll(async () => {
    id = await createDeployment(svc);
    expect((await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: otherDeveloper.auth })).body).toMatchObject({ created: true });
    // A committed folder whose name could also be a file's: model/extra.yml/
    expect((await put('model/extra.yml/a.yml', 'model/extra.yml/b.yml')).status).toBe(200);
    const committed = await svc.call('POST', `${buildPath(id)}/commit`, { auth: otherDeveloper.auth, body: { message: 'a folder named like a file' } });
    expect(committed.body.outcome).toBe('committed');
  });

  const refused = async (res: Awaited<ReturnType<typeof put>>, paths: string[]) => {
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PATH_CONFLICT');
    expect(res.body.paths).toEqual(paths);
  };

  it('refuses a new file under a committed file, and a new file where committed files are a folder, naming every path involved', async () => {
    await refused(await put('model/cubes/orders.yml/x.yml'), ['model/cubes/orders.yml', 'model/cubes/orders.yml/x.yml']);
    await refused(await put('model/extra.yml'), ['model/extra.yml', 'model/extra.yml/a.yml', 'model/extra.yml/b.yml']);
  });

  it('counts uncommitted new files, and two new paths of one write, as files', async () => {
    expect((await put('model/new.yml')).status).toBe(200);
    await refused(await put('model/new.yml/x.yml'), ['model/new.yml', 'model/new.yml/x.yml']);
    expect((await put('model/later.yml/x.yml')).status).toBe(200);
    await refused(await put('model/later.yml'), ['model/later.yml', 'model/later.yml/x.yml']);
    await refused(await put('model/both.yml', 'model/both.yml/x.yml'), ['model/both.yml', 'model/both.yml/x.yml']);
  });

  it('frees the path of a file deleted, committed or not, and keeps a folder while any file is left in it', async () => {
    expect((await del('model/new.yml')).status).toBe(200);
    expect((await put('model/new.yml/x.yml')).status).toBe(200);
    expect((await del('model/extra.yml/a.yml')).status).toBe(200);
    await refused(await put('model/extra.yml'), ['model/extra.yml', 'model/extra.yml/b.yml']);
    expect((await del('model/extra.yml/b.yml')).status).toBe(200);
    expect((await put('model/extra.yml')).status).toBe(200);
    const list = await svc.call('GET', files(id), { auth: otherDeveloper.auth });
    expect(list.body.items.map((f: { path: string }) => f.path)).toEqual([
      'model/cubes/orders.yml',
      'model/extra.yml',
      'model/later.yml/x.yml',
      'model/new.yml/x.yml',
      'model/views/sales.yml',
    ]);
  });

  it('pages through the files as the user sees them, and a page goes on after a file deleted since its cursor was given', async () => {
    const page = (after?: string) => svc.call('GET', files(id, `?first=2${after ? `&after=${after}` : ''}`), { auth: otherDeveloper.auth });
    const first = await page();
    expect(first.body.items.map((f: { path: string }) => f.path)).toEqual(['model/cubes/orders.yml', 'model/extra.yml']);
    expect((await del('model/extra.yml')).status).toBe(200);
    const second = await page(first.body.pageInfo.endCursor);
    expect(second.status).toBe(200);
    expect(second.body.items.map((f: { path: string }) => f.path)).toEqual(['model/later.yml/x.yml', 'model/new.yml/x.yml']);
    expect(second.body.items[0]).toMatchObject({ uncommitted: true, sha256: sha256('cubes: []\n') });
    const third = await page(second.body.pageInfo.endCursor);
    expect(third.body.items.map((f: { path: string }) => f.path)).toEqual(['model/views/sales.yml']);
    expect(third.body.pageInfo.hasNextPage).toBe(false);
  });
});

describe('GET data-model/files?content=true: a branch with every file’s text in a few pages', () => {
  const MiB = 1024 * 1024;
  /** A file of `bytes` bytes (ASCII) whose text says which it is. */
  const bigText = (n: number, bytes: number) => `# file ${n}\n${'x'.repeat(bytes - 10)}\n`;
  let id: number;
  let dev: string;
  /** Every page of the list with content, as the answers came. */
  const pages = async (query: string, auth = developer.auth) => {
    const out: { items: { path: string; content?: string; size: number; sha256: string; uncommitted: boolean }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }[] = [];
    let after: string | null = null;
    do {
      const res = await svc.call('GET', files(id, `?content=true${query}${after ? `&after=${after}` : ''}`), { auth });
      expect(res.status).toBe(200);
      out.push(res.body);
      after = res.body.pageInfo.hasNextPage ? res.body.pageInfo.endCursor : null;
    } while (after);
    return out;
  };
  /** What one-file reads answer for each path of `items`. */
  const readEach = async (items: { path: string }[], branch: string) =>
    Promise.all(
      items.map(async ({ path }) => {
        const res = await svc.call('GET', files(id, `?branchName=${branch}&path=${encodeURIComponent(path)}`), { auth: developer.auth });
        return { path, content: res.body.content, size: res.body.size, sha256: res.body.sha256, uncommitted: res.body.uncommitted };
      }),
    );

  beforeAll(async () => {
    id = await createDeployment(svc);
    dev = (await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth })).body.branch.branchName;
    // 70 small committed files (a page of them is read on the branch's model shard) and three of 1.5 MiB.
    const small = Array.from({ length: 70 }, (_, n) => ({ path: `model/cubes/small_${String(n).padStart(2, '0')}.yml`, content: `cubes:\n  - name: small_${n}\n    sql_table: t${n}\n` }));
    const big = [1, 2, 3].map((n) => ({ path: `model/big/big_${n}.yml`, content: bigText(n, 1.5 * MiB) }));
    expect((await svc.call('PUT', files(id), { auth: developer.auth, body: { files: [...small, ...big] } })).status).toBe(200);
    const committed = await svc.call('POST', `${buildPath(id)}/commit`, { auth: developer.auth, body: { message: 'many files' } });
    expect(committed.body.outcome).toBe('committed');
  });

  it('carries each file’s text, size, SHA-256 and state exactly as a one-file read answers them, and leaves the text out without content=true', async () => {
    const plain = await svc.call('GET', files(id, `?branchName=${dev}&first=1000`), { auth: viewer.auth });
    expect(plain.body.items.every((f: object) => !('content' in f))).toBe(true);
    const listed = (await pages(`&branchName=${dev}&first=1000`, viewer.auth)).flatMap((p) => p.items);
    expect(listed.map((f) => f.path)).toEqual(plain.body.items.map((f: { path: string }) => f.path));
    expect(listed).toEqual(await readEach(listed, dev));
    expect(listed.find((f) => f.path === 'model/big/big_2.yml')!.content).toBe(bigText(2, 1.5 * MiB));
  });

  it('ends a page before the file that would take its text past 4 MiB, and the next page goes on from that file', async () => {
    const all = await pages(`&branchName=${dev}&first=1000`);
    // big_1 + big_2 fill 3 MiB; big_3 would take the page to 4.5 MiB.
    expect(all[0]!.items.map((f) => f.path)).toEqual(['model/big/big_1.yml', 'model/big/big_2.yml']);
    expect(all[0]!.pageInfo.hasNextPage).toBe(true);
    expect(all[1]!.items[0]!.path).toBe('model/big/big_3.yml');
    expect(all).toHaveLength(2);
    expect(all[1]!.items).toHaveLength(73);
    expect(all[1]!.pageInfo.hasNextPage).toBe(false);
    for (const page of all) expect(page.items.reduce((sum, f) => sum + f.size, 0)).toBeLessThanOrEqual(4 * MiB);
  });

  it('holds at least one file whatever its size, and counts uncommitted edits and deletions as the user sees them', async () => {
    const edits = [
      { path: 'model/big/big_1.yml', content: bigText(1, 4.5 * MiB) },
      { path: 'model/cubes/small_05.yml', content: 'cubes: []\n' },
      { path: 'model/cubes/added.yml', content: 'cubes: []\n' },
    ];
    expect((await svc.call('PUT', files(id), { auth: developer.auth, body: { files: edits } })).status).toBe(200);
    expect((await svc.call('DELETE', files(id, '?path=model/cubes/small_06.yml'), { auth: developer.auth })).status).toBe(200);
    const all = await pages('&first=1000');
    expect(all[0]!.items.map((f) => f.path)).toEqual(['model/big/big_1.yml']);
    expect(all[0]!.items[0]).toMatchObject({ size: 4.5 * MiB, uncommitted: true });
    expect(all[1]!.items.slice(0, 2).map((f) => f.path)).toEqual(['model/big/big_2.yml', 'model/big/big_3.yml']);
    expect(all).toHaveLength(2);
    const listed = all.flatMap((p) => p.items);
    expect(listed.map((f) => f.path)).not.toContain('model/cubes/small_06.yml');
    expect(listed.find((f) => f.path === 'model/cubes/small_05.yml')).toMatchObject({ content: 'cubes: []\n', uncommitted: true, sha256: sha256('cubes: []\n') });
    expect(listed).toEqual(await readEach(listed, dev));
  });

  it('carries text whose JSON is many times its size, and characters of every UTF-8 length, exactly as a one-file read does', async () => {
    // 1 MiB of control characters is 6 MiB of JSON (\u0001 each), more than a page's text budget.
    const escaped = `# escapes\n${'\u0001"\\\t'.repeat(256 * 1024)}é 日本 😀\n`;
    const accented = `# accents\n${'é日😀'.repeat(100_000)}\n`;
    const written = [
      { path: 'model/cubes/small_00.yml', content: escaped },
      { path: 'model/cubes/small_01.yml', content: accented },
    ];
    expect((await svc.call('PUT', files(id), { auth: developer.auth, body: { files: written } })).status).toBe(200);
    // The page with these edits holds 60-odd committed files too: it is made on the branch's model shard.
    const listed = (await pages('&first=1000')).flatMap((p) => p.items);
    for (const { path, content } of written) expect(listed.find((f) => f.path === path)).toMatchObject({ content, size: Buffer.byteLength(content), sha256: sha256(content), uncommitted: true });
    expect(listed).toEqual(await readEach(listed, dev));
  });

  it('keeps `first` as the most files of a page, and refuses a content value that is not a boolean with 400', async () => {
    const bigOnes = await svc.call('GET', files(id, `?branchName=${dev}&first=3`), { auth: developer.auth });
    expect(bigOnes.body.items.map((f: { path: string }) => f.path)).toEqual(['model/big/big_1.yml', 'model/big/big_2.yml', 'model/big/big_3.yml']);
    const page = await svc.call('GET', files(id, `?branchName=${dev}&content=true&first=3&after=${bigOnes.body.pageInfo.endCursor}`), { auth: developer.auth });
    expect(page.body.items.map((f: { path: string }) => f.path)).toEqual(['model/cubes/added.yml', 'model/cubes/orders.yml', 'model/cubes/small_00.yml']);
    expect(page.body.pageInfo.hasNextPage).toBe(true);
    const bad = await svc.call('GET', files(id, '?content=maybe'), { auth: developer.auth });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(bad.body.errors[0].pointer).toBe('/querystring/content');
  });
});

describe('GET data-model/validate', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
  });

  it('answers 200 valid: true for a model that compiles', async () => {
    const res = await svc.call('GET', `${buildPath(id)}/data-model/validate`, { auth: viewer.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ branchName: 'main', valid: true, fileCount: 2, errorCount: 0 });
  });

  it('answers 200 valid: false with the diagnostics of the working edits on compile errors', async () => {
    await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    const broken = ORDERS_YML.replace('type: count', 'type: running_total');
    await svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: developer.auth, body: { files: [{ path: 'model/cubes/orders.yml', content: broken }] } });
    const res = await svc.call('GET', `${buildPath(id)}/data-model/validate`, { auth: developer.auth });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.errorCount).toBeGreaterThan(0);
    const error = res.body.diagnostics.find((d: { severity: string }) => d.severity === 'error');
    expect(error).toMatchObject({ file: 'model/cubes/orders.yml', line: expect.any(Number), column: expect.any(Number), code: expect.stringMatching(/^MODEL_/) });
    expect(error.line).toBe(broken.split('\n').findIndex((l) => l.includes('running_total')) + 1);
    const main = await svc.call('GET', `${buildPath(id)}/data-model/validate?branchName=main`, { auth: developer.auth });
    expect(main.body.valid).toBe(true);
  });

  it('reports YAML syntax errors with line and column', async () => {
    await svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: developer.auth, body: { files: [{ path: 'model/cubes/bad.yml', content: 'cubes:\n  - name: [oops\n' }] } });
    const res = await svc.call('GET', `${buildPath(id)}/data-model/validate`, { auth: developer.auth });
    const syntax = res.body.diagnostics.find((d: { file: string }) => d.file === 'model/cubes/bad.yml');
    expect(syntax).toMatchObject({ severity: 'error', line: expect.any(Number), column: expect.any(Number) });
  });

  it('compiles only model files under model/', async () => {
    const res = await svc.call('GET', `${buildPath(id)}/data-model/validate?branchName=main`);
    expect(res.body.fileCount).toBe(2);
  });
});

describe('GET data-model/file-hashes', () => {
  it('gives the SHA-256 of every file of the branch as the user sees it', async () => {
    const id = await createDeployment(svc);
    const main = await svc.call('GET', `${buildPath(id)}/data-model/file-hashes`, { auth: viewer.auth });
    expect(main.status).toBe(200);
    expect(main.body.hashes).toEqual({ 'model/cubes/orders.yml': sha256(ORDERS_YML), 'model/views/sales.yml': sha256(SALES_VIEW_YML) });
    await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    await svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: developer.auth, body: { files: [{ path: 'model/new.yml', content: 'cubes: []\n' }] } });
    const dev = await svc.call('GET', `${buildPath(id)}/data-model/file-hashes`, { auth: developer.auth });
    expect(dev.body.hashes['model/new.yml']).toBe(sha256('cubes: []\n'));
    expect(dev.body.branchName).toBe(`dev-${developer.id}`);
  });

  it('gives the same hashes and sizes for a branch of many committed files (read on the branch’s model thread) as for a few, edits included', async () => {
    const id = await createDeployment(svc);
    const user = createUser(svc, 'developer');
    await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: user.auth });
    const many = Array.from({ length: 150 }, (_, i) => ({ path: `model/cubes/c${String(i).padStart(3, '0')}.yml`, content: `cubes:\n  - name: c${i}\n    sql_table: t${i}\n` }));
    expect((await svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: user.auth, body: { files: many } })).status).toBe(200);
    expect((await svc.call('POST', `${buildPath(id)}/commit`, { auth: user.auth, body: { message: 'many cubes' } })).body.outcome).toBe('committed');
    const edited = { path: 'model/cubes/c007.yml', content: 'cubes: []\n' };
    await svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: user.auth, body: { files: [edited] } });
    await svc.call('DELETE', `${buildPath(id)}/data-model/files?path=model/cubes/c008.yml`, { auth: user.auth });
    const expected: Record<string, string> = { 'model/cubes/orders.yml': sha256(ORDERS_YML), 'model/views/sales.yml': sha256(SALES_VIEW_YML) };
    for (const file of many) if (file.path !== 'model/cubes/c008.yml') expected[file.path] = sha256(file.content);
    expected[edited.path] = sha256(edited.content);
    // A page of 100 committed files not read before is read and hashed on the model thread too.
    const listed = await svc.call('GET', `${buildPath(id)}/data-model/files?first=100`, { auth: user.auth });
    expect(listed.body.items).toHaveLength(100);
    for (const item of listed.body.items as { path: string; sha256: string; size: number }[]) {
      expect(item.sha256, item.path).toBe(expected[item.path]);
      expect(item.size, item.path).toBe(Buffer.byteLength(item.path === edited.path ? edited.content : (many.find((f) => f.path === item.path)?.content ?? ''), 'utf8'));
    }
    for (let round = 0; round < 2; round++) {
      // The first answer reads every committed file; the second answers from the hashes kept.
      const res = await svc.call('GET', `${buildPath(id)}/data-model/file-hashes`, { auth: user.auth });
      expect(res.status).toBe(200);
      expect(res.body.hashes).toEqual(expected);
      expect(Object.keys(res.body.hashes)).toEqual(Object.keys(expected).sort());
    }
  });
});
