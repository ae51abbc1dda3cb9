import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src-main/platform/clock';
import { openDatabase, type Db } from '../../../src-main/platform/db/connection';
import { JobRunner, type JobRunnerOptions } from '../../../src-main/platform/jobs';

export interface JobsFixture {
  file: string;
  clock: ManualClock;
  deploymentId: number;
  /** A runner on its own connection to the shared file (as another process would have). */
  runner(owner: string, options?: Partial<JobRunnerOptions>): JobRunner;
  db(): Db;
  cleanup(): Promise<void>;
}

export function jobsFixture(): JobsFixture {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-jobs-'));
  const file = join(dir, 'drydock.sqlite');
  const clock = new ManualClock();
  const dbs: Db[] = [];
  const runners: JobRunner[] = [];
  const open = () => {
    const db = openDatabase(file);
    dbs.push(db);
    return db;
  };
  const first = open();
  const now = clock.now().toISOString();
  const deploymentId = Number(
    first
      .prepare(
        `INSERT INTO deployments (name, cloud_provider, creation_method, deploy_mode, created_at, updated_at)
         VALUES ('test', 'aws', 'upload', 'git', ?, ?)`,
      )
      .run(now, now).lastInsertRowid,
  );
  return {
    file,
    clock,
    deploymentId,
    db: () => first,
    runner(owner, options = {}) {
      const runner = new JobRunner({ db: open(), clock, owner, leaseMs: 30_000, shutdownGraceMs: 50, ...options });
      runners.push(runner);
      return runner;
    },
    async cleanup() {
      for (const runner of runners) await runner.stop();
      for (const db of dbs) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets queued microtasks and immediates run (handlers start on the next turn). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Resolves once `signal` aborts (with its reason). */
export const aborted = (signal: AbortSignal): Promise<unknown> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
