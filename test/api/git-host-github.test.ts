import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubAppClient } from '../../src-main/connectors/githost';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github';
import { startGitServer, type GitServer } from '../support/git-server';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { upload } from '../support/upstream';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

let svc: TestService;
let git: GitServer;
let github: FakeGitHub;
// The git server accepts whatever installation token the fake GitHub issued last, as GitHub does.
const users: Record<string, string> = { teammate: 'teammate-password' };

beforeAll(async () => {
  git = await startGitServer(users);
  github = await startFakeGitHub({
    appId: '4242',
    publicKey,
    installationId: 77,
    repos: [{ owner: 'acme', name: 'models', cloneUrl: git.url('acme/models.git') }],
    onToken: (token) => {
      users['x-access-token'] = token;
    },
  });
  svc = await startTestService();
  svc.ctx.services.gitHost = new GitHubAppClient({ appId: '4242', privateKey, baseUrl: github.url });
});
afterAll(async () => {
  await svc.stop();
  await github.close();
  await git.close();
});

describe('a GitHub repository through the GitHub App (REST fake and git server on loopback)', () => {
  it('connects with an installation token as x-access-token, fetches over HTTP and pushes commits back', async () => {
    await git.createRepo('acme/models.git');
    const work = await git.clone('acme/models.git');
    await git.git(work, 'commit', '-q', '--allow-empty', '-m', 'team start');
    await git.git(work, 'push', '-q', 'origin', 'HEAD:main');
    const main = (await git.git(work, 'rev-parse', 'HEAD')).trim();

    const id = await createDeployment(svc);
    const seen = git.requests.length;
    const res = await svc.call('POST', `/build/api/v1/deployments/${id}/git-host/connect`, { body: { owner: 'acme', repo: 'models', installationId: 77 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: 'github', installationId: 77, authentication: 'app', url: git.url('acme/models.git'), branch: 'main', headCommit: main });
    expect(github.calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /app/installations/77/access_tokens');
    expect(git.requests.slice(seen).map((r) => r.user)).toEqual(['x-access-token', 'x-access-token']);

    const finish = await upload(svc, id, { 'model/cubes/orders.yml': 'cubes: []\n' });
    expect(finish.push).toMatchObject({ status: 'pushed', commit: finish.commit });
    expect((await git.git(join(git.root, 'acme/models.git'), 'rev-parse', 'main')).trim()).toBe(finish.commit);

    // The short-lived token is minted per operation and stored nowhere.
    expect(await svc.ctx.secrets.get(`git-remote:${id}`)).toBeNull();
    const token = github.tokens[github.tokens.length - 1];
    expect(readFileSync(join(svc.dataDir, 'drydock.sqlite')).includes(token)).toBe(false);
    expect(res.text).not.toContain(token);
  });

  it('a repository the app cannot see answers 404 GITHOST_NOT_FOUND and stores nothing', async () => {
    const id = await createDeployment(svc);
    const res = await svc.call('POST', `/build/api/v1/deployments/${id}/git-host/connect`, { body: { owner: 'acme', repo: 'secret-plans' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('GITHOST_NOT_FOUND');
    expect((await svc.call('GET', `/build/api/v1/deployments/${id}/git-host/connection`)).body.connected).toBe(false);
  });
});
