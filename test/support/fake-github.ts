import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { importSPKI, jwtVerify } from 'jose';

/**
 * A fake GitHub REST API on 127.0.0.1 answering the shapes GitHub answers for a GitHub App: the
 * app, its installations, installation access tokens (app JWT checked against the app's public
 * key), an installation's repositories and a repository whose `clone_url` points wherever the test
 * serves git. Every access token it issues is handed to `onToken` (to let the git server accept it).
 */
export interface FakeGitHub {
  url: string;
  /** Tokens issued so far, newest last. */
  tokens: string[];
  calls: { method: string; path: string }[];
  close(): Promise<void>;
}

export interface FakeRepo {
  owner: string;
  name: string;
  cloneUrl: string;
  defaultBranch?: string;
}

export async function startFakeGitHub(options: { appId: string; publicKey: string; installationId: number; repos: FakeRepo[]; onToken: (token: string) => void }): Promise<FakeGitHub> {
  const key = await importSPKI(options.publicKey, 'RS256');
  const tokens: string[] = [];
  const calls: FakeGitHub['calls'] = [];
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const repoJson = (r: FakeRepo, id: number) => ({
    id,
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    owner: { login: r.owner },
    private: true,
    default_branch: r.defaultBranch ?? 'main',
    html_url: `https://github.com/${r.owner}/${r.name}`,
    clone_url: r.cloneUrl,
  });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      calls.push({ method: req.method ?? 'GET', path });
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const appCall = async () => {
        try {
          await jwtVerify(bearer, key, { issuer: options.appId });
          return true;
        } catch {
          json(res, 401, { message: 'A JSON web token could not be decoded' });
          return false;
        }
      };
      const installationCall = () => {
        if (tokens.includes(bearer)) return true;
        json(res, 401, { message: 'Bad credentials' });
        return false;
      };
      const repoMatch = /^\/repos\/([^/]+)\/([^/]+)(\/installation|\/branches)?$/.exec(path);
      const found = repoMatch ? options.repos.findIndex((r) => r.owner === repoMatch[1] && r.name === repoMatch[2]) : -1;
      if (req.method === 'GET' && path === '/app') {
        if (await appCall()) json(res, 200, { slug: 'drydock-test', name: 'Drydock test', owner: { login: 'acme' }, html_url: 'https://github.com/apps/drydock-test' });
      } else if (req.method === 'GET' && path === '/app/installations') {
        if (await appCall()) json(res, 200, [{ id: options.installationId, account: { login: 'acme', type: 'Organization' }, repository_selection: 'all', created_at: '2026-01-01T00:00:00Z' }]);
      } else if (req.method === 'POST' && path === `/app/installations/${options.installationId}/access_tokens`) {
        if (!(await appCall())) return;
        const token = `ghs_${randomBytes(18).toString('hex')}`;
        tokens.push(token);
        options.onToken(token);
        json(res, 201, { token, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { contents: 'write' } });
      } else if (req.method === 'GET' && path === '/installation/repositories') {
        if (installationCall()) json(res, 200, { total_count: options.repos.length, repositories: options.repos.map(repoJson) });
      } else if (repoMatch && found === -1) {
        json(res, 404, { message: 'Not Found' });
      } else if (req.method === 'GET' && repoMatch?.[3] === '/installation') {
        if (await appCall()) json(res, 200, { id: options.installationId, account: { login: repoMatch[1] } });
      } else if (req.method === 'GET' && repoMatch?.[3] === '/branches') {
        if (installationCall()) json(res, 200, []);
      } else if (req.method === 'GET' && repoMatch) {
        if (installationCall()) json(res, 200, repoJson(options.repos[found], found + 1));
      } else {
        json(res, 404, { message: 'Not Found' });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, tokens, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
