import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalGitHost } from '../../../../src-main/connectors/githost';

const host = () => new LocalGitHost(mkdtempSync(join(tmpdir(), 'dd-githost-')));
const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));
const hasGit = spawnSync('git', ['--version']).status === 0;

describe('local repository host', () => {
  it('lists installations and the repositories each grants, sorted', async () => {
    const gh = host();
    const acme = gh.createInstallation('acme');
    const jane = gh.createInstallation('jane', 'User');
    expect(gh.createInstallation('ACME').id).toBe(acme.id);
    await gh.createRepository('acme', 'warehouse');
    await gh.createRepository('acme', 'analytics', { private: false, defaultBranch: 'trunk' });
    await gh.createRepository('jane', 'notes');
    expect((await gh.installations()).map((i) => [i.account.login, i.account.type])).toEqual([
      ['acme', 'Organization'],
      ['jane', 'User'],
    ]);
    const repos = await gh.repositories(acme.id);
    expect(repos.map((r) => [r.fullName, r.private, r.defaultBranch])).toEqual([
      ['acme/analytics', false, 'trunk'],
      ['acme/warehouse', true, 'main'],
    ]);
    expect((await gh.repositories(jane.id)).map((r) => r.name)).toEqual(['notes']);
    await expect(gh.repositories(999)).rejects.toMatchObject({ code: 'GITHOST_NOT_FOUND' });
    expect(await gh.installationFor('acme', 'analytics')).toBe(acme.id);
    expect(await gh.installationFor('acme', 'nope')).toBeNull();
  });

  it('refuses repositories of accounts the app is not installed on, duplicates and unsafe names', async () => {
    const gh = host();
    await expect(gh.createRepository('nobody', 'x')).rejects.toMatchObject({ code: 'GITHOST_NOT_FOUND' });
    gh.createInstallation('acme');
    await gh.createRepository('acme', 'x');
    await expect(gh.createRepository('acme', 'X')).rejects.toThrow(/already exists/);
    await expect(gh.createRepository('acme', '..')).rejects.toThrow(/not a valid repository name/);
    expect(() => gh.createInstallation('a/b')).toThrow(/not a valid account name/);
  });

  it('keeps branches and files in a bare git repository: read at a branch or at a commit id', async () => {
    const gh = host();
    gh.createInstallation('acme');
    await gh.createRepository('acme', 'dbt', { files: [{ path: 'target/manifest.json', content: '{"v":1}' }] });
    const first = await gh.resolveRef('acme', 'dbt', 'main');
    const second = await gh.commit('acme', 'dbt', 'main', [{ path: 'target/manifest.json', content: '{"v":2}' }], 'dbt parse');
    await gh.commit('acme', 'dbt', 'feature', [{ path: 'models/x.sql', content: 'select 1' }], 'branch off');
    expect(text(await gh.readFile('acme', 'dbt', 'main', 'target/manifest.json'))).toBe('{"v":2}');
    expect(text(await gh.readFile('acme', 'dbt', first!, 'target/manifest.json'))).toBe('{"v":1}');
    expect(await gh.readFile('acme', 'dbt', 'main', 'models/x.sql')).toBeNull();
    expect(await gh.readFile('acme', 'dbt', 'no-branch', 'target/manifest.json')).toBeNull();
    expect(await gh.resolveRef('acme', 'dbt', '0'.repeat(40))).toBeNull();
    const branches = await gh.branches('acme', 'dbt');
    expect(branches.map((b) => b.name)).toEqual(['feature', 'main']);
    expect(branches.find((b) => b.name === 'main')!.commit).toBe(second);
  });

  it.skipIf(!hasGit)('is a plain bare repository: git can clone it and push to it', async () => {
    const gh = host();
    gh.createInstallation('acme');
    await gh.createRepository('acme', 'dbt');
    const work = mkdtempSync(join(tmpdir(), 'dd-clone-'));
    const git = (...args: string[]) => {
      const result = spawnSync('git', args, { cwd: work, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout;
    };
    git('clone', '-q', gh.gitdirOf('acme', 'dbt'), '.');
    writeFileSync(join(work, 'manifest.json'), '{"pushed":true}');
    git('add', 'manifest.json');
    git('commit', '-q', '-m', 'pushed');
    git('push', '-q', 'origin', 'HEAD:main');
    expect(text(await gh.readFile('acme', 'dbt', 'main', 'manifest.json'))).toBe('{"pushed":true}');
    expect((await gh.branches('acme', 'dbt'))[0].commit).toBe(git('rev-parse', 'HEAD').trim());
  });
});
