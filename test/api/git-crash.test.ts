// Crash safety of the model repositories (issue 23, item 2): `drydock serve` is killed with SIGKILL
// at spread points while it commits 400 files, merges into the deploy branch (which pushes to the
// team's repository), finishes an upload, pulls its parent branch and pulls from the team's
// repository (a real smart-HTTP git server). After each restart on the same data dir every branch
// must read (files, file-hashes and validate answer 2xx) and plain `git fsck --full` must pass.
//
// `npm test` runs CRASH_POINTS (20) kill points; `npm run crash` (DRYDOCK_CRASH_POINTS, default 100)
// runs more. DRYDOCK_CRASH_SEED replays a run (the seed is printed).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callWithKey } from '../support/crash-data';
import { startGitServer, type GitServer } from '../support/git-server';
import { useModelAsSampleProject } from '../support/sample-project';
import { startServe, type ServeProcess } from '../support/serve';
import { gitFsck } from '../support/git-cli';

const KEY = 'dd_git_crash_key_abcdefghijklmnopqrstuvwxyz0123456789';
const PASSWORD = 'correct-horse-battery';
const POINTS = Number(process.env.DRYDOCK_CRASH_POINTS) || 20;
const SEED = Number(process.env.DRYDOCK_CRASH_SEED) || Math.floor(Math.random() * 2 ** 31);
const FILES_PER_COMMIT = 400;

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const cube = (name: string, round: number) => `cubes:\n  - name: ${name}\n    sql_table: public.${name}\n    measures:\n      - name: count_${round}\n        type: count\n`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const cleanup: { dirs: string[]; servers: ServeProcess[]; git: GitServer | null } = { dirs: [], servers: [], git: null };
afterAll(async () => {
  for (const server of cleanup.servers) await server.stop('SIGKILL');
  await cleanup.git?.close();
  for (const dir of cleanup.dirs) rmSync(dir, { recursive: true, force: true });
});

describe('kill -9 during commits, merges, uploads and pulls', () => {
  it(`leaves every branch readable and git fsck --full clean after a restart, at ${POINTS} kill points`, { timeout: 60_000 + POINTS * 12_000 }, async () => {
    console.log(`git crash test: ${POINTS} kill points, seed ${SEED} (DRYDOCK_CRASH_SEED=${SEED} replays it)`);
    const next = random(SEED);
    const dataDir = mkdtempSync(join(tmpdir(), 'drydock-git-crash-'));
    const sampleDir = useModelAsSampleProject({ 'model/cubes/orders.yml': cube('orders', 0) }, 'drydock-git-crash-sample-');
    cleanup.dirs.push(dataDir, sampleDir);
    const git = await startGitServer({ alice: PASSWORD });
    cleanup.git = git;
    await git.createRepo('team.git');
    const team = await git.clone('team.git');
    cleanup.dirs.push(team);
    const teamCommit = async (round: number) => {
      spawnSync('sh', ['-c', `mkdir -p model/team && printf '%s' "$0" > model/team/t_${round}.yml`, cube(`team_${round}`, round)], { cwd: team });
      await git.git(team, 'add', '.');
      await git.git(team, 'commit', '-q', '-m', `team ${round}`);
      await git.git(team, 'push', '-q', 'origin', 'HEAD:main');
    };
    await teamCommit(0);

    const env = { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_SAMPLE_PROJECT: sampleDir };
    const serve = async () => {
      const server = await startServe({ dataDir, env, args: ['--no-login-link'], timeoutMs: 60_000 });
      cleanup.servers.push(server);
      return server;
    };
    let server = await serve();
    const call = (method: string, path: string, body?: unknown) => callWithKey(server, KEY, method, path, body);
    const created = await call('POST', '/build/api/v1/deployments/', { name: 'crash', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
    expect(created.status, created.text).toBe(201);
    const D = `/build/api/v1/deployments/${created.body.id}`;
    const connected = await call('POST', `${D}/git-host/connect`, { url: git.url('team.git'), username: 'alice', password: PASSWORD });
    expect(connected.status, connected.text).toBeLessThan(300);
    const dev = await call('POST', `${D}/dev-mode`);
    expect(dev.status, dev.text).toBeLessThan(300);
    const devBranch: string = dev.body.branch.branchName;

    /** Edits on the dev branch that a round then commits (or merges): the same paths each round, new contents, so the model stays the same size. */
    const stage = async (round: number, files: number) => {
      const body = { files: Array.from({ length: files }, (_, i) => ({ path: `model/staged/c_${i}.yml`, content: cube(`c_${i}`, round) })) };
      const res = await call('PUT', `${D}/data-model/files?branchName=${encodeURIComponent(devBranch)}`, body);
      expect(res.status, res.text).toBe(200);
    };
    const commit = (message: string) => call('POST', `${D}/commit`, { branchName: devBranch, message });

    /** What a round does; the returned promise is the request the kill lands in. */
    const kinds: Record<string, { maxDelayMs: number; run: (round: number) => Promise<() => Promise<unknown>> }> = {
      commit: { maxDelayMs: 1500, run: async (round) => (await stage(round, FILES_PER_COMMIT), () => commit(`round ${round}`)) },
      merge: {
        maxDelayMs: 600,
        run: async (round) => {
          await stage(round, 40);
          const committed = await commit(`before merge ${round}`);
          if (committed.status >= 300) throw new Error(`commit before merge: ${committed.status} ${committed.text}`);
          return () => call('POST', `${D}/merge-to-default`, { branchName: devBranch });
        },
      },
      upload: {
        maxDelayMs: 600,
        run: async (round) => {
          const files = Array.from({ length: 20 }, (_, i) => ({ path: `model/uploaded/u_${i}.yml`, content: cube(`u_${i}`, round) }));
          const started = await call('POST', `${D}/data-model/upload/start`, { branchName: devBranch, files: files.map((f) => ({ path: f.path, size: Buffer.byteLength(f.content), sha256: sha256(f.content) })) });
          if (started.status !== 200) throw new Error(`upload start: ${started.status} ${started.text}`);
          for (const f of files) {
            const sent = await call('POST', `${D}/data-model/upload/file`, { uploadId: started.body.uploadId, path: f.path, offset: 0, data: Buffer.from(f.content).toString('base64') });
            if (sent.status !== 200) throw new Error(`upload chunk: ${sent.status} ${sent.text}`);
          }
          return () => call('POST', `${D}/data-model/upload/finish`, { uploadId: started.body.uploadId });
        },
      },
      'pull parent': { maxDelayMs: 300, run: async () => () => call('POST', `${D}/pull`, { branchName: devBranch }) },
      'pull upstream': {
        maxDelayMs: 800,
        run: async (round) => {
          await teamCommit(round);
          return () => call('POST', `${D}/git-host/pull`, { branchName: 'main' });
        },
      },
    };
    const order = Object.keys(kinds);

    const branches = async (): Promise<string[]> => {
      const res = await call('GET', `${D}/branches?first=100`);
      expect(res.status, res.text).toBe(200);
      return res.body.items.map((b: { branchName: string }) => b.branchName);
    };
    const checkEverything = async (when_: string) => {
      // What the start check said goes with any failure.
      const when = `${when_}\n${server.output().split('\n').filter((line) => line.includes('repository')).join('\n')}`;
      // Every branch, every read, at once: validation runs on model threads while the others read on the HTTP thread.
      const reads = (await branches()).flatMap((branch) => {
        const q = `branchName=${encodeURIComponent(branch)}`;
        return [`${D}/data-model/files?${q}&first=1000`, `${D}/data-model/file-hashes?${q}`, `${D}/data-model/validate?${q}`];
      });
      const answers = await Promise.all(reads.map((path) => call('GET', path)));
      answers.forEach((res, i) => expect(res.status, `${when}: GET ${reads[i]} → ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(300));
      const fsck = gitFsck(join(dataDir, 'repos', String(created.body.id)));
      expect(fsck.status, `${when}: git fsck --full\n${fsck.stderr}${fsck.stdout}`).toBe(0);
    };

    const outcomes: string[] = [];
    const timings: { prepare: number; restart: number; check: number }[] = [];
    for (let point = 0; point < POINTS; point++) {
      const kind = order[point % order.length]!;
      const delay = Math.round(next() * kinds[kind]!.maxDelayMs);
      // A failed preparation (the previous crash left the dev branch busy, say) is no crash point: the request below still runs.
      const prepared = performance.now();
      const request = await kinds[kind]!.run(point).catch((error: unknown) => {
        outcomes.push(`${kind}: preparation failed (${String(error).slice(0, 120)})`);
        return () => call('POST', `${D}/commit`, { branchName: devBranch, message: `fallback ${point}` });
      });
      const started = performance.now();
      // Readers at the same time, as other windows and the CLI are: the service's thread is busy
      // between the steps of each write, which is when a write that is not atomic can be cut.
      let reading = true;
      const readers = Array.from({ length: 3 }, async () => {
        while (reading) await call('GET', `${D}/data-model/files?branchName=${encodeURIComponent(devBranch)}&first=1000`).catch(() => (reading = false));
      });
      const answer = request().then(
        (res) => (res as { status: number }).status,
        () => 'killed',
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      server.proc.kill('SIGKILL');
      await server.exited;
      reading = false;
      await Promise.all(readers);
      const status = await answer;
      outcomes.push(`${kind} killed at ${delay} ms (${Math.round(performance.now() - started)} ms after the request): ${status === 'killed' ? 'in flight' : `answered ${status}`}`);
      const restart = performance.now();
      server = await serve();
      const check = performance.now();
      await checkEverything(`after killing ${kind} at ${delay} ms (point ${point + 1}, seed ${SEED})`);
      timings.push({ prepare: started - prepared, restart: check - restart, check: performance.now() - check });
    }
    console.log(outcomes.join('\n'));
    const mean = (key: 'prepare' | 'restart' | 'check') => Math.round(timings.reduce((sum, t) => sum + t[key], 0) / timings.length);
    console.log(`per kill point, mean: prepare ${mean('prepare')} ms, restart ${mean('restart')} ms, checks and fsck ${mean('check')} ms`);
    expect(outcomes.filter((o) => o.includes('in flight')).length, 'kills that landed while a request was in flight').toBeGreaterThanOrEqual(Math.ceil(POINTS / 3));
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
