/**
 * Paths git and other systems refuse (issue 23, item 4), through the API of a real service on real
 * repositories: names git reserves (`.git`, `git~1`, `.git::$INDEX_ALLOCATION`…), names Windows
 * cannot hold, Unicode that is no text, and names that differ only in case or normalisation are
 * refused with 400 and a code naming the rule on every way in — writes, renames, uploads, commits,
 * pulls from the team's repository — while a repository that already holds such a path keeps
 * working: it reads, validates, commits other files, and renames or deletes the bad one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_PATHS } from '../support/fuzz-tricks-paths';
import { startGitServer, type GitServer } from '../support/git-server';
import { buildPath, createDeployment, sha256, startWithSampleProject } from '../support/data-model';
import type { SampleProjectService } from '../support/sample-project';

const PATH_CODES = ['PATH_RESERVED_BY_GIT', 'PATH_NOT_PORTABLE', 'PATH_INVALID_UNICODE', 'PATH_CASE_CONFLICT', 'INVALID_FILE_PATH', 'FILE_TYPE_NOT_ALLOWED'];
const CUBE = (name: string) => `cubes:\n  - name: ${name}\n    sql_table: public.${name}\n    measures:\n      - name: count\n        type: count\n`;
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x' };

let svc: SampleProjectService;
let id: number;
let devBranch: string;

const files = (q = '') => `${buildPath(id)}/data-model/files${q}`;
const put = (path: string, content = CUBE('x')) => svc.call('PUT', files(), { body: { files: [{ path, content }] } });
const listPaths = async (branch = devBranch): Promise<string[]> =>
  (await svc.call('GET', files(`?branchName=${encodeURIComponent(branch)}&first=1000`))).body.items.map((f: { path: string }) => f.path);
const working = async () => (await svc.call('GET', files(`?first=1000`))).body.hasUncommittedChanges as boolean;
const repoDir = () => join(svc.dataDir, 'repos', String(id));

beforeAll(async () => {
  svc = await startWithSampleProject();
  id = await createDeployment(svc);
  const dev = await svc.call('POST', `${buildPath(id)}/dev-mode`);
  expect(dev.status, dev.text).toBeLessThan(300);
  devBranch = dev.body.branch.branchName;
});
afterAll(async () => {
  await svc.stop();
});

describe('a new path is refused with 400 and the code of the rule it breaks', () => {
  const cases: [string, string, string][] = [
    ['model/git~1/x.yml', 'PATH_RESERVED_BY_GIT', 'git~1'],
    ['.git::$INDEX_ALLOCATION/x.yml', 'PATH_RESERVED_BY_GIT', '.git'],
    ['.git./x.yml', 'PATH_RESERVED_BY_GIT', '.git'],
    ['model/.g\u200cit/x.yml', 'PATH_RESERVED_BY_GIT', 'HFS'],
    ['model/gitmod~1/x.yml', 'PATH_RESERVED_BY_GIT', 'gitmodules'],
    ['model/CON.yml', 'PATH_NOT_PORTABLE', 'CON'],
    ['model/aux.js', 'PATH_NOT_PORTABLE', 'AUX'],
    ['model/COM\u00b9.yml', 'PATH_NOT_PORTABLE', 'COM'],
    ['model/a:b.yml', 'PATH_NOT_PORTABLE', ':'],
    ['model/x*?<>|".yml', 'PATH_NOT_PORTABLE', '*'],
    ['model/x./y.yml', 'PATH_NOT_PORTABLE', 'period'],
    ['model/trailing.yml ', 'PATH_NOT_PORTABLE', 'space'],
    ['model/a\ud800.yml', 'PATH_INVALID_UNICODE', 'surrogate'],
    ['model/x\ufffd.yml', 'PATH_INVALID_UNICODE', 'FFFD'],
  ];

  it.each(cases)('PUT "%s" → 400 %s, naming the path and the rule, and nothing is written', async (path, code, rule) => {
    const before = await listPaths();
    const res = await put(path);
    expect(res.status, res.text).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe(code);
    expect(res.body.errors[0].pointer).toBe('/body/files/0/path');
    expect(res.body.detail).toContain(rule);
    expect(res.body.paths).toEqual([path]);
    expect(await listPaths()).toEqual(before);
    expect(await working()).toBe(false);
  });

  it('every hostile path of the fuzzer dictionary is refused on writes, renames and uploads, never a 500', async () => {
    const before = await listPaths();
    for (const path of HOSTILE_PATHS) {
      const write = await put(path);
      expect(write.status, `PUT ${JSON.stringify(path)}: ${write.text}`).toBe(400);
      expect(PATH_CODES, JSON.stringify(path)).toContain(write.body.code);
      const rename = await svc.call('POST', files('/rename'), { body: { path: 'model/cubes/orders.yml', newPath: path } });
      expect(rename.status, `rename to ${JSON.stringify(path)}: ${rename.text}`).toBe(400);
      expect(rename.body.code).toBe(write.body.code);
      const upload = await svc.call('POST', `${buildPath(id)}/data-model/upload/start`, { body: { files: [{ path, size: 3, sha256: sha256('a: ') }] } });
      expect(upload.status, `upload of ${JSON.stringify(path)}: ${upload.text}`).toBe(400);
      expect(PATH_CODES).toContain(upload.body.code);
    }
    expect(await listPaths()).toEqual(before);
    expect(await working()).toBe(false);
  });
});

describe('names that differ only in case or Unicode normalisation are one file on macOS and Windows', () => {
  it('refuses a new file whose name folds onto an existing one (case), with 400 PATH_CASE_CONFLICT naming both', async () => {
    const res = await put('model/cubes/Orders.yml');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PATH_CASE_CONFLICT');
    expect(res.body.detail).toContain('model/cubes/orders.yml');
    expect(res.body.paths).toEqual(['model/cubes/Orders.yml']);
  });

  it('refuses a folder twin, an NFD/NFC/case twin (café / CAFÉ) and two twins in one request', async () => {
    expect((await put('model/Cubes/new.yml')).body.code).toBe('PATH_CASE_CONFLICT');
    expect((await put('model/café.yml', CUBE('cafe'))).status).toBe(200);
    const upper = await put('model/CAFÉ.yml');
    expect(upper.status).toBe(400);
    expect(upper.body.code).toBe('PATH_CASE_CONFLICT');
    const both = await svc.call('PUT', files(), { body: { files: [{ path: 'model/ok.yml', content: CUBE('a') }, { path: 'model/OK.yml', content: CUBE('b') }] } });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('PATH_CASE_CONFLICT');
    expect(both.body.paths.sort()).toEqual(['model/OK.yml', 'model/ok.yml']);
    expect((await svc.call('DELETE', files(`?path=${encodeURIComponent('model/café.yml')}`))).status).toBe(200);
  });

  it('a create-only write never replaces another file: a twin is refused, not merged into it', async () => {
    const res = await svc.call('PUT', files(), { body: { files: [{ path: 'model/cubes/ORDERS.yml', content: CUBE('other'), baseSha256: null }] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PATH_CASE_CONFLICT');
    const orders = await svc.call('GET', files(`?path=model/cubes/orders.yml`));
    expect(orders.body.content).not.toContain('other');
  });

  it('a rename that only changes case is fine (the old name goes), and so is a commit of it', async () => {
    const renamed = await svc.call('POST', files('/rename'), { body: { path: 'model/views/sales.yml', newPath: 'model/views/Sales.yml' } });
    expect(renamed.status, renamed.text).toBe(200);
    const commit = await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'case-only rename' } });
    expect(commit.status, commit.text).toBe(200);
    expect(await listPaths()).toContain('model/views/Sales.yml');
  });

  it('a folder whose files are all deleted, committed or not, no longer takes its name: its twin is fine then, not before', async () => {
    expect((await put('model/VIEWS/x.yml')).body.code).toBe('PATH_CASE_CONFLICT');
    const sales = (await svc.call('GET', files(`?path=${encodeURIComponent('model/views/Sales.yml')}`))).body.content as string;
    expect((await svc.call('DELETE', files(`?path=${encodeURIComponent('model/views/Sales.yml')}`))).status).toBe(200);
    const twin = await put('model/VIEWS/x.yml');
    expect(twin.status, twin.text).toBe(200);
    expect((await put('model/views/y.yml')).body.code).toBe('PATH_CASE_CONFLICT');
    expect((await svc.call('DELETE', files(`?path=${encodeURIComponent('model/VIEWS/x.yml')}`))).status).toBe(200);
    expect((await put('model/views/y.yml')).status).toBe(200);
    expect((await svc.call('DELETE', files(`?path=${encodeURIComponent('model/views/y.yml')}`))).status).toBe(200);
    // The committed file back as it was: no uncommitted change is left.
    expect((await put('model/views/Sales.yml', sales)).status).toBe(200);
    expect(await working()).toBe(false);
  });

  it('an upload that adds a twin is refused at start with 400 PATH_CASE_CONFLICT', async () => {
    const res = await svc.call('POST', `${buildPath(id)}/data-model/upload/start`, { body: { files: [{ path: 'model/cubes/ORDERS.yml', size: 3, sha256: sha256('a: ') }] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PATH_CASE_CONFLICT');
  });
});

describe('an uncommitted edit with a refused name (kept from before the rules) is refused at commit', () => {
  it('answers 400 with the rule, commits nothing, and the edit can be deleted', async () => {
    const head = (await svc.call('GET', files())).body.commit;
    svc.ctx.db
      .prepare('INSERT INTO model_working_files (deployment_id, branch, path, content, updated_by, updated_at) VALUES (?, ?, ?, ?, NULL, ?)')
      .run(id, devBranch, 'model/NUL.yml', CUBE('nul'), new Date().toISOString());
    const commit = await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'with a device name' } });
    expect(commit.status, commit.text).toBe(400);
    expect(commit.body.code).toBe('PATH_NOT_PORTABLE');
    expect((await svc.call('GET', files())).body.commit).toBe(head);
    const removed = await svc.call('DELETE', files(`?path=${encodeURIComponent('model/NUL.yml')}`));
    expect(removed.status, removed.text).toBe(200);
    expect(await working()).toBe(false);
  });
});

describe('a repository that already holds such paths keeps working', () => {
  const weird = ['model/git~1/legacy.yml', 'model/CON.yml', 'model/twin.yml', 'model/TWIN.yml'];

  beforeAll(() => {
    // A commit made outside this service (plain git, protections off) onto the dev branch.
    const git = (args: string[], input?: string) => execFileSync('git', ['--git-dir', repoDir(), ...args], { encoding: 'utf8', env, input }).trim();
    const head = git(['rev-parse', devBranch]);
    const blob = (text: string) => git(['hash-object', '-w', '--stdin'], text);
    const rootEntries = git(['ls-tree', head]).split('\n');
    const modelTree = git(['ls-tree', `${head}:model`]).split('\n');
    const legacy = git(['mktree'], `100644 blob ${blob(CUBE('legacy'))}\tlegacy.yml\n`);
    const model = git(['mktree'], [...modelTree, `040000 tree ${legacy}\tgit~1`, `100644 blob ${blob(CUBE('con'))}\tCON.yml`, `100644 blob ${blob(CUBE('twin'))}\ttwin.yml`, `100644 blob ${blob(CUBE('twin_upper'))}\tTWIN.yml`].join('\n') + '\n');
    const root = git(['mktree'], [...rootEntries.filter((e) => !e.endsWith('\tmodel')), `040000 tree ${model}\tmodel`].join('\n') + '\n');
    const commit = git(['commit-tree', root, '-p', head, '-m', 'paths from before the rules']);
    git(['update-ref', `refs/heads/${devBranch}`, commit, head]);
  });

  it('lists and reads them, hashes them, and validates the branch (no 500 UnsafeFilepathError)', async () => {
    const paths = await listPaths();
    for (const path of weird) expect(paths).toContain(path);
    for (const path of weird) {
      const read = await svc.call('GET', files(`?path=${encodeURIComponent(path)}`));
      expect(read.status, `${path}: ${read.text}`).toBe(200);
    }
    const hashes = await svc.call('GET', `${buildPath(id)}/data-model/file-hashes`);
    expect(hashes.status, hashes.text).toBe(200);
    expect(Object.keys(hashes.body.hashes)).toEqual(expect.arrayContaining(weird));
    const validate = await svc.call('GET', `${buildPath(id)}/data-model/validate`);
    expect(validate.status, validate.text).toBe(200);
    expect(validate.body.valid).toBe(true);
  });

  it('commits other files beside them, then renames and deletes the bad ones; the branch ends without them', async () => {
    expect((await put('model/cubes/fresh.yml', CUBE('fresh'))).status).toBe(200);
    const commit = await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'another file' } });
    expect(commit.status, commit.text).toBe(200);
    // Twins already there stay editable.
    expect((await put('model/TWIN.yml', CUBE('twin_edited'))).status).toBe(200);
    const rename = await svc.call('POST', files('/rename'), { body: { path: 'model/CON.yml', newPath: 'model/console.yml' } });
    expect(rename.status, rename.text).toBe(200);
    for (const path of ['model/git~1/legacy.yml', 'model/TWIN.yml']) {
      const removed = await svc.call('DELETE', files(`?path=${encodeURIComponent(path)}`));
      expect(removed.status, `${path}: ${removed.text}`).toBe(200);
    }
    const fixed = await svc.call('POST', `${buildPath(id)}/commit`, { body: { message: 'portable names' } });
    expect(fixed.status, fixed.text).toBe(200);
    const tree = execFileSync('git', ['--git-dir', repoDir(), 'ls-tree', '-r', '--name-only', devBranch], { encoding: 'utf8', env }).split('\n');
    expect(tree).toContain('model/console.yml');
    expect(tree).toContain('model/twin.yml');
    for (const gone of ['model/git~1/legacy.yml', 'model/CON.yml', 'model/TWIN.yml']) expect(tree).not.toContain(gone);
  });
});

describe('pulls from the team repository that carry such a path', () => {
  let git: GitServer;
  let deployment: number;
  const B = () => `/build/api/v1/deployments/${deployment}`;
  let team: string;
  const plain = (args: string[]) => spawnSync('git', ['-c', 'core.protectNTFS=false', '-c', 'core.protectHFS=false', ...args], { cwd: team, encoding: 'utf8', env });

  beforeAll(async () => {
    git = await startGitServer({ alice: 'pw-team-1234' });
    await git.createRepo('team.git');
    team = await git.clone('team.git');
    const add = (path: string, content: string, message: string) => {
      execFileSync('sh', ['-c', 'mkdir -p "$(dirname "$1")" && printf "%s" "$2" > "$1"', 'sh', path, content], { cwd: team });
      expect(plain(['add', '--', path]).status).toBe(0);
      expect(plain(['commit', '-q', '-m', message]).status).toBe(0);
    };
    add('model/cubes/team_orders.yml', CUBE('team_orders'), 'team model');
    await git.git(team, 'push', '-q', 'origin', 'HEAD:main');
    deployment = await createDeployment(svc);
    const connected = await svc.call('POST', `${B()}/git-host/connect`, { body: { url: git.url('team.git'), username: 'alice', password: 'pw-team-1234' } });
    expect(connected.status, connected.text).toBe(200);
    // Then a teammate (protections off) commits a path git reserves.
    add('model/git~1/sneaky.yml', CUBE('sneaky'), 'a path git reserves');
    await git.git(team, 'push', '-q', 'origin', 'HEAD:main');
  });
  afterAll(async () => {
    await git.close();
  });

  it('a fetch does not move the branch onto it, and says why', async () => {
    const before = (await svc.call('GET', `${B()}/data-model/files?branchName=main`)).body.commit;
    const fetched = await svc.call('POST', `${B()}/git-host/fetch`);
    expect(fetched.status, fetched.text).toBe(200);
    const main = fetched.body.branches.find((b: { branchName: string }) => b.branchName === 'main');
    expect(main.outcome).toBe('behind');
    expect(main.reason).toContain('model/git~1/sneaky.yml');
    expect((await svc.call('GET', `${B()}/data-model/files?branchName=main`)).body.commit).toBe(before);
  });

  it('a pull (fast-forward) answers 422 PATH_RESERVED_BY_GIT naming the path, and the branch stays', async () => {
    const before = (await svc.call('GET', `${B()}/data-model/files?branchName=main`)).body.commit;
    const pulled = await svc.call('POST', `${B()}/git-host/pull`, { body: { branchName: 'main' } });
    expect(pulled.status, pulled.text).toBe(422);
    expect(pulled.body.code).toBe('PATH_RESERVED_BY_GIT');
    expect(pulled.body.paths).toEqual(['model/git~1/sneaky.yml']);
    expect(pulled.body.problems).toEqual([{ path: 'model/git~1/sneaky.yml', code: 'PATH_RESERVED_BY_GIT', rule: 'the NTFS short name of .git' }]);
    expect((await svc.call('GET', `${B()}/data-model/files?branchName=main`)).body.commit).toBe(before);
  });

  it('a merge pull is refused the same way, and goes through when the resolution leaves the path out', async () => {
    // A commit of this side: the pull becomes a merge.
    const start = await svc.call('POST', `${B()}/data-model/upload/start`, { body: { files: [{ path: 'model/cubes/local.yml', size: Buffer.byteLength(CUBE('local')), sha256: sha256(CUBE('local')) }] } });
    expect(start.status, start.text).toBe(200);
    await svc.call('POST', `${B()}/data-model/upload/file`, { body: { uploadId: start.body.uploadId, path: 'model/cubes/local.yml', offset: 0, data: Buffer.from(CUBE('local')).toString('base64') } });
    const finished = await svc.call('POST', `${B()}/data-model/upload/finish`, { body: { uploadId: start.body.uploadId } });
    expect(finished.status, finished.text).toBe(200);
    const refused = await svc.call('POST', `${B()}/git-host/pull`, { body: { branchName: 'main' } });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.code).toBe('PATH_RESERVED_BY_GIT');
    expect(refused.body.detail).toContain('resolutions');
    const resolved = await svc.call('POST', `${B()}/git-host/pull`, { body: { branchName: 'main', resolutions: [{ path: 'model/git~1/sneaky.yml', content: null }] } });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.outcome).toBe('merged');
    const tree = (await svc.call('GET', `${B()}/data-model/files?branchName=main&first=1000`)).body.items.map((f: { path: string }) => f.path);
    expect(tree).toContain('model/cubes/local.yml');
    expect(tree).not.toContain('model/git~1/sneaky.yml');
  });

  it('a case twin from the team is refused with 422 PATH_CASE_CONFLICT', async () => {
    execFileSync('sh', ['-c', 'git rm -q -r --cached model/git~1 && rm -rf model/git~1 && printf "%s" "$1" > model/cubes/Team_Orders.yml', 'sh', CUBE('twin')], { cwd: team, env });
    expect(plain(['add', '-A']).status).toBe(0);
    expect(plain(['commit', '-q', '-m', 'a case twin']).status).toBe(0);
    await git.git(team, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    await git.git(team, 'push', '-q', 'origin', 'HEAD:main');
    const pulled = await svc.call('POST', `${B()}/git-host/pull`, { body: { branchName: 'main' } });
    expect(pulled.status, pulled.text).toBe(422);
    expect(pulled.body.code).toBe('PATH_CASE_CONFLICT');
    expect(pulled.body.paths).toEqual(['model/cubes/Team_Orders.yml']);
  });
});

describe('generated output', () => {
  it('a warehouse pull or transform sync into a folder Windows cannot hold is refused at start with the rule', async () => {
    const pull = await svc.call('POST', `/api/v1/deployments/${id}/warehouse-semantic-view-pulls`, { body: { schema: 'S', viewNames: ['v'], outputPath: 'model/CON' } });
    expect(pull.status, pull.text).toBe(400);
    expect(pull.body.code).toBe('PATH_NOT_PORTABLE');
    expect(pull.body.errors[0].pointer).toBe('/body/outputPath');
  });
});
