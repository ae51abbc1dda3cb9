// Polling helpers of the black-box cancellation tests: see a job under way, then read the branch it may have moved.
import { expect } from 'vitest';
import type { TestResponse, TestService } from './service';

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
