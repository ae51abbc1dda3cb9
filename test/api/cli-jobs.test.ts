// Waiting for jobs from the built CLI: --no-wait, `jobs wait`, `jobs cancel`, and Ctrl-C while
// waiting. The service is real (HTTP on loopback, SQLite) with its job runner stopped, so jobs stay
// QUEUED for as long as the test needs — as behind a busy worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJobRunner } from '../../src-main/platform/jobs';
import { cliEnv, jsonOf, runCli, startCli } from '../support/cli';
import { createDeployment } from '../support/deployments';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';

let svc: TestService;
let env: NodeJS.ProcessEnv;
let id: number;

beforeAll(async () => {
  svc = await startTestService();
  await getJobRunner(svc.ctx).stop();
  env = cliEnv({ DRYDOCK_URL: svc.url, DRYDOCK_API_KEY: ADMIN_KEY });
  id = await createDeployment(svc, 'cli-jobs');
}, 120_000);
afterAll(async () => svc?.stop());

const push = (...extra: string[]) => ['push', 'product_sales', '-d', String(id), '--schema', 'PUBLIC', ...extra];

// Each test spawns the CLI several times: generous on a loaded machine.
describe('drydock jobs', { timeout: 120_000 }, () => {
  it('--no-wait returns the queued job at once; jobs list shows it running; jobs cancel ends it', async () => {
    const started = await runCli(push('--no-wait', '--json'), { env });
    expect(started.status, started.stderr).toBe(0);
    const { job } = jsonOf(started);
    expect(job).toMatchObject({ kind: 'push', deploymentId: id, status: 'QUEUED', stage: 'queued', percentComplete: 0, error: null });
    expect(job.statusUrl).toBe(`/api/v1/deployments/${id}/warehouse-semantic-view-syncs/${job.id}`);

    const text = await runCli(push('--no-wait'), { env });
    expect(text.stdout).toMatch(new RegExp(`^Started push job [0-9a-f-]{36} \\(QUEUED\\)\\. Follow it with: drydock jobs wait [0-9a-f-]{36} -d ${id}\\n$`));

    const running = jsonOf(await runCli(['jobs', '-d', String(id), '--json'], { env }));
    expect(running.map((j: { id: string }) => j.id)).toContain(job.id);
    expect(running.every((j: { status: string }) => j.status === 'QUEUED')).toBe(true);

    const cancelled = await runCli(['jobs', 'cancel', job.id, '-d', String(id), '--json'], { env });
    expect(cancelled.status, cancelled.stderr).toBe(0);
    expect(jsonOf(cancelled).job).toMatchObject({ id: job.id, status: 'CANCELLED' });
    const after = await svc.call('GET', `/api/v1/deployments/${id}/warehouse-semantic-view-syncs/${job.id}`);
    expect(after.body.status).toBe('CANCELLED');

    // Waiting for a job that was cancelled ends with its state and code.
    const waited = await runCli(['jobs', 'wait', job.id, '-d', String(id)], { env });
    expect(waited.status).toBe(1);
    expect(waited.stderr).toMatch(/^JOB_CANCELLED: push job [0-9a-f-]{36} was cancelled\./);
  });

  it('Ctrl-C while waiting, even the moment the job is announced, asks the service to cancel the job, waits for it to stop, and exits 130', async () => {
    const { child, done } = startCli(push(), { env });
    let stderr = '';
    let interrupted = false;
    await new Promise<void>((resolve) => {
      child.stderr!.on('data', (d) => {
        stderr += d;
        // The whole id, not just the words before it: a chunk of stderr may end anywhere. A single
        // Ctrl-C as soon as the job is announced: from then on it cancels the job.
        if (!interrupted && /Started push job [0-9a-f-]{36}/.test(stderr)) {
          interrupted = true;
          child.kill('SIGINT');
          resolve();
        }
      });
    });
    const jobId = /Started push job ([0-9a-f-]{36})/.exec(stderr)![1]!;
    const result = await done;
    expect(result.status, `ended by ${result.signal ?? 'itself'}; stderr: ${result.stderr}`).toBe(130);
    expect(result.stderr).toContain(`Cancelling push job ${jobId}…`);
    expect(result.stderr).toMatch(/JOB_CANCELLED: push job [0-9a-f-]{36} was cancelled at your request\.\n$/);
    expect((await svc.call('GET', `/api/v1/deployments/${id}/warehouse-semantic-view-syncs/${jobId}`)).body.status).toBe('CANCELLED');
  });
});
