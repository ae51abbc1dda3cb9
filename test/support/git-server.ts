import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real git server for tests: `git http-backend` (smart HTTP, the CGI program shipped with git)
 * behind node:http on 127.0.0.1, serving the bare repositories under `root`. Every request needs
 * Basic credentials of one of `users`; the authenticated name goes to the CGI as `REMOTE_USER`,
 * which is what enables pushes (receive-pack).
 */
export interface GitServer {
  root: string;
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** URL of a repository without credentials. */
  url(repo: string): string;
  /** URL with credentials inside, for plain `git` in tests. */
  authedUrl(repo: string, user?: string): string;
  /** Creates an empty bare repository (`HEAD` → `defaultBranch`). */
  createRepo(repo: string, defaultBranch?: string): Promise<string>;
  /** Runs plain `git` with `args` in `cwd` (rejects with its stderr on failure); resolves to stdout. */
  git(cwd: string, ...args: string[]): Promise<string>;
  /** A working clone of `repo` in a fresh temp dir (plain git, through HTTP). */
  clone(repo: string): Promise<string>;
  /** Makes pushes to `repo` fail with `message` from a pre-receive hook (null: accept again). */
  refusePushes(repo: string, message: string | null): void;
  /** Holds every answer back this long (to catch a transfer in flight). */
  setDelay(ms: number): void;
  /** Authorization headers seen, in order (to check what a client sent). */
  requests: { method: string; path: string; user: string | null }[];
  close(): Promise<void>;
}

const gitEnv = {
  GIT_AUTHOR_NAME: 'Teammate',
  GIT_AUTHOR_EMAIL: 'teammate@example.com',
  GIT_COMMITTER_NAME: 'Teammate',
  GIT_COMMITTER_EMAIL: 'teammate@example.com',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

/** Plain git, run asynchronously: the server answering it lives in this same process. */
function runGit(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'init.defaultBranch=main', '-c', 'credential.helper=', ...args], { cwd, env: { ...process.env, ...gitEnv } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`git ${args.join(' ')} failed: ${stderr}`))));
  });
}

const backend = join(spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).stdout.trim(), 'git-http-backend');

export async function startGitServer(users: Record<string, string> = { alice: 'correct-horse' }): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'drydock-git-server-'));
  const requests: GitServer['requests'] = [];
  let delayMs = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (delayMs > 0) {
      const timer = setTimeout(() => serve(req, res), delayMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    serve(req, res);
  };

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const header = req.headers.authorization ?? '';
    const [user, ...rest] = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':') : [];
    const authed = user !== undefined && users[user] !== undefined && users[user] === rest.join(':');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, user: authed ? user : null });
    if (!authed) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
      res.end('Authentication required\n');
      return;
    }
    const child = spawn(backend, [], {
      env: {
        ...gitEnv,
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    });
    req.pipe(child.stdin);
    // CGI output: headers, a blank line, the body.
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      started = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!started) res.writeHead(500).end();
      else res.end();
    });
    child.on('error', () => res.writeHead(500).end());
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}`;
  const [firstUser] = Object.keys(users);

  return {
    root,
    base,
    requests,
    url: (repo) => `${base}/${repo}`,
    authedUrl: (repo, user = firstUser) => `http://${encodeURIComponent(user)}:${encodeURIComponent(users[user])}@127.0.0.1:${port}/${repo}`,
    async createRepo(repo, defaultBranch = 'main') {
      const dir = join(root, repo);
      mkdirSync(dir, { recursive: true });
      await runGit(dir, ['init', '-q', '--bare', `--initial-branch=${defaultBranch}`]);
      return dir;
    },
    git: (cwd, ...args) => runGit(cwd, args),
    setDelay: (ms) => {
      delayMs = ms;
    },
    async clone(repo) {
      const dir = mkdtempSync(join(tmpdir(), 'drydock-git-clone-'));
      await runGit(dir, ['clone', '-q', `http://${encodeURIComponent(firstUser)}:${encodeURIComponent(users[firstUser])}@127.0.0.1:${port}/${repo}`, '.']);
      return dir;
    },
    refusePushes(repo, message) {
      const hook = join(root, repo, 'hooks', 'pre-receive');
      if (message === null) {
        rmSync(hook, { force: true });
        return;
      }
      writeFileSync(hook, `#!/bin/sh\necho ${JSON.stringify(message)} >&2\nexit 1\n`);
      chmodSync(hook, 0o755);
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
