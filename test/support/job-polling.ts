// Polling helpers of the black-box cancellation tests: see a job under way, then read the branch it may have moved.
import { expect } from 'vitest';
import { commitFiles } from '../../src-main/features/data-model';
import type { TestResponse, TestService } from './service';

const AUTHOR = { name: 'Test', email: 'test@example.com' };

/** Every status a job ends in. */
export const TERMINAL = ['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'];

/** Polls without pausing until the job shows `underWay`; fails if it ended first (the cancel came too late to test anything). */
export async function whenUnderWay(svc: TestService, path: string, underWay: (body: TestResponse['body']) => boolean): Promise<TestResponse['body']> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await svc.call('GET', path);
    expect(res.status, res.text).toBe(200);
    if (underWay(res.body)) return res.body;
    expect(TERMINAL, `the job ended ${String(res.body.status)} before it was seen under way`).not.toContain(res.body.status);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${path} to be under way`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The head commit of `branch` as the branch listing shows it. */
export async function branchHead(svc: TestService, id: number, branch: string): Promise<string> {
  const res = await svc.call('GET', `/build/api/v1/deployments/${id}/branches`);
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { branchName: string; headCommit: string }[]).find((b) => b.branchName === branch)!.headCommit;
}

/**
 * Reads `path` every 10 ms until `stop` holds for the answer, and returns that answer. The limit is a
 * deadline, not a count of polls, so a loaded machine (where each poll takes long) gets the same time.
 */
async function pollAnswer(svc: TestService, path: string, stop: (res: TestResponse) => boolean, what: string, timeoutMs: number, auth?: string): Promise<TestResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.call('GET', path, auth ? { auth } : {});
    if (stop(res)) return res;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last answer ${res.status}: ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Polls `path` (answering 200) until `done` holds for its body, for up to 120 s. */
export async function pollUntil(svc: TestService, path: string, done: (body: TestResponse['body']) => boolean, what: string): Promise<TestResponse['body']> {
  const check = (res: TestResponse) => {
    expect(res.status, res.text).toBe(200);
    return done(res.body);
  };
  return (await pollAnswer(svc, path, check, what, 120_000)).body;
}

/** Polls a job until it ends (or its path stops answering 200) and returns that answer. */
export async function waitForJobEnd(svc: TestService, path: string, auth?: string, timeoutMs = 25_000): Promise<TestResponse> {
  return pollAnswer(svc, path, (res) => res.status !== 200 || TERMINAL.includes(res.body.status), `the job at ${path} to end`, timeoutMs, auth);
}

/** Commits `files` (a list, or path → content) to the deploy branch `main` as a test author; returns the commit. */
export async function commitToMain(svc: TestService, id: number, files: { path: string; content: string }[] | Record<string, string>, message: string): Promise<string> {
  const list = Array.isArray(files) ? files : Object.entries(files).map(([path, content]) => ({ path, content }));
  const { commit } = await commitFiles(svc.ctx, id, 'main', list, message, AUTHOR);
  return commit;
}

/** Commits `files` to `main` and waits until the build of that commit succeeded. */
export async function commitAndBuild(svc: TestService, id: number, files: Record<string, string>, message: string): Promise<string> {
  const commit = await commitToMain(svc, id, files, message);
  const build = await pollUntil(svc, `/api/v1/deployments/${id}/build-status`, (body) => body.commit === commit && ['succeeded', 'failed'].includes(body.buildStatus), 'the build');
  expect(build.buildStatus).toBe('succeeded');
  return commit;
}
