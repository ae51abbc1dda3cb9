// Deployments › Scheduled tasks in a real browser (issue 14 item 8): a failed run is retried as a new
// run and shown; a run whose task changed since cannot be retried, saying why; a long run that ends
// while the window is in the background is announced with a desktop notification whose click opens
// the run. The agent (an LLM endpoint) cannot run here: a local OpenAI-compatible HTTP server stands
// in for it at its protocol boundary (POST /v1/chat/completions). window.Notification is recorded by
// an init script: the browser's own notification API is the boundary of the notification.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_JOB_MS } from '../../src-renderer/src/lib/job-notices';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });

interface RunBody {
  id: string;
  jobId: string | null;
  status: string;
  error: { code: string } | null;
  output: string | null;
}

/** The stand-in agent: refuses the key, answers, or holds the answer until released. */
const agent = {
  mode: 'answer' as 'refuse' | 'answer' | 'hold',
  requests: [] as { authorization: string | undefined; prompt: string }[],
  held: [] as ServerResponse[],
  server: null as Server | null,
  answer(res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ model: 'stand-in-agent', choices: [{ message: { role: 'assistant', content: 'Revenue is up; see `orders.total_amount`.' } }] }));
  },
  release() {
    for (const res of this.held.splice(0)) this.answer(res);
  },
};

function handle(req: IncomingMessage, res: ServerResponse): void {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString()));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(text) as { messages: { role: string; content: string }[] };
    agent.requests.push({ authorization: req.headers.authorization, prompt: body.messages.find((m) => m.role === 'user')?.content ?? '' });
    if (agent.mode === 'refuse') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided.' } }));
    } else if (agent.mode === 'hold') agent.held.push(res);
    else agent.answer(res);
  });
}

let e2e: E2E;
let deploymentId: number;
let taskId: string;

const runs = async (): Promise<RunBody[]> =>
  ((await e2e.server.api('GET', `/api/v1/deployments/${deploymentId}/scheduled-tasks/${taskId}/runs`)).body as { items: RunBody[] }).items;

beforeAll(async () => {
  agent.server = createServer(handle);
  await new Promise<void>((resolve) => agent.server!.listen(0, '127.0.0.1', resolve));
  const port = (agent.server.address() as AddressInfo).port;
  e2e = await startE2E({ env: { DRYDOCK_AGENT_BASE_URL: `http://127.0.0.1:${port}/v1`, DRYDOCK_AGENT_API_KEY: 'sk-stand-in', DRYDOCK_AGENT_MODEL: 'stand-in-agent' } });
  deploymentId = await createDeployment(e2e.server, 'tasks-e2e');
  // Records every notification the page makes and every permission request (the app asks once).
  await e2e.context.addInitScript(() => {
    const w = window as unknown as { __notices: { title: string; body: string }[]; __lastNotice: Notification | null; __permissionAsks: number };
    w.__notices = [];
    w.__lastNotice = null;
    w.__permissionAsks = 0;
    const Real = window.Notification;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        w.__notices.push({ title, body: options?.body ?? '' });
        w.__lastNotice = this;
      }
    }
    const ask = Real.requestPermission.bind(Real);
    Object.defineProperty(Recorded, 'requestPermission', {
      value: (...args: Parameters<typeof Real.requestPermission>) => {
        w.__permissionAsks += 1;
        return ask(...args);
      },
    });
    window.Notification = Recorded;
  });
  await e2e.page.goto(`${e2e.server.url}/deployments/${deploymentId}/tasks`);
}, 180_000);
afterAll(async () => {
  agent.release();
  await e2e?.teardown();
  await new Promise((resolve) => agent.server?.close(resolve));
});

describe('scheduled tasks: runs, retry, notification', () => {
  it('creates a task from the form; a run the agent refuses shows FAILED with its code', async () => {
    const { page } = e2e;
    await page.getByText('No scheduled tasks yet').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'New task…' }).click();
    const form = page.getByRole('form', { name: 'New scheduled task' });
    await form.getByLabel('Name').fill('Revenue check');
    await form.getByLabel('Question for the agent').fill('How did revenue develop last week?');
    await form.getByLabel('Time zone').fill('UTC');
    await form.getByRole('button', { name: 'Create task' }).click();
    const taskRow = page.getByRole('table', { name: 'Task list' }).getByRole('row').filter({ hasText: 'Revenue check' });
    await taskRow.getByText('manual only').waitFor();
    const listed = (await e2e.server.api('GET', `/api/v1/deployments/${deploymentId}/scheduled-tasks`)).body as { items: { id: string; prompt: string; cron: string | null }[] };
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ prompt: 'How did revenue develop last week?', cron: null });
    taskId = listed.items[0].id;

    agent.mode = 'refuse';
    await taskRow.getByRole('button', { name: 'Run Revenue check now' }).click();
    const runTable = page.getByRole('table', { name: 'Runs of scheduled tasks' });
    await runTable.getByText('FAILED').waitFor({ timeout: 60_000 });
    await runTable.getByText('AGENT_UNAUTHORIZED').waitFor();
    expect((await runs()).map((r) => r.status)).toEqual(['FAILED']);
    expect(agent.requests.at(-1)).toEqual({ authorization: 'Bearer sk-stand-in', prompt: 'How did revenue develop last week?' });
    // The browser was asked once for notifications, at the first click, not at every click.
    expect(await page.evaluate(() => (window as unknown as { __permissionAsks: number }).__permissionAsks)).toBe(1);
  });

  it('Retry on the failed run asks the same question again as a new run and marks it', async () => {
    const { page } = e2e;
    const [failed] = await runs();
    agent.mode = 'answer';
    const asked = agent.requests.length;
    await page.getByRole('table', { name: 'Runs of scheduled tasks' }).getByRole('button', { name: /^Retry the run of Revenue check/ }).click();
    await page.waitForURL((url) => /\/tasks\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(failed.id));
    const newId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const marked = page.getByRole('table', { name: 'Runs of scheduled tasks' }).locator('tr.selected');
    await marked.getByText('COMPLETED').waitFor({ timeout: 60_000 });
    await marked.getByText('Revenue is up').waitFor();
    const after = await runs();
    expect(after.map((r) => [r.id, r.status])).toEqual([
      [newId, 'COMPLETED'],
      [failed.id, 'FAILED'],
    ]);
    expect(agent.requests.slice(asked).map((r) => r.prompt)).toEqual(['How did revenue develop last week?']);
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'tasks-retried-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(page, 'tasks-retried-1600');
    await page.setViewportSize({ width: 1360, height: 860 });
  });

  it('a run whose task changed since cannot be retried, and says why', async () => {
    const { page } = e2e;
    const changed = await e2e.server.api('PUT', `/api/v1/deployments/${deploymentId}/scheduled-tasks/${taskId}`, { prompt: 'How did revenue develop last month?' });
    expect(changed.status).toBe(200);
    const retry = page.getByRole('table', { name: 'Runs of scheduled tasks' }).getByRole('button', { name: /^Retry the run of Revenue check/ });
    // The list follows the change made elsewhere (live events); the button turns disabled with the reason.
    await poll(() => retry.isDisabled()).toBe(true);
    await expect(retry.getAttribute('title')).resolves.toMatch(/“Revenue check” was changed after this run.*Run now/);
    const before = (await runs()).length;
    await retry.click({ force: true });
    expect((await runs()).length).toBe(before);
  });

  it('a long run that ends while the window is in the background shows a notification; its click opens the run', async () => {
    const { page, context, server } = e2e;
    await context.grantPermissions(['notifications'], { origin: server.url });
    await page.goto(`${server.url}/deployments/${deploymentId}/general`);
    await page.getByRole('tab', { name: 'General' }).waitFor();
    // The window goes to the background (another app in front).
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    agent.mode = 'hold';
    const started = await server.api('POST', `/api/v1/deployments/${deploymentId}/scheduled-tasks/${taskId}/run`);
    expect(started.status).toBe(202);
    const run = started.body as RunBody;
    await poll(() => agent.held.length).toBe(1);
    expect((await runs()).find((r) => r.id === run.id)?.status).toBe('RUNNING');
    // Long enough to be worth a notification (the page saw it start before the agent was asked).
    await new Promise((resolve) => setTimeout(resolve, LONG_JOB_MS + 1000));
    expect(await page.evaluate(() => (window as unknown as { __notices: unknown[] }).__notices)).toEqual([]);
    agent.release();
    await poll(async () => (await runs()).find((r) => r.id === run.id)?.status).toBe('COMPLETED');
    const notices = () => page.evaluate(() => (window as unknown as { __notices: { title: string; body: string }[] }).__notices);
    await poll(notices).toHaveLength(1);
    const [notice] = await notices();
    expect(notice.title).toBe('Scheduled task run finished');
    expect(notice.body).toMatch(new RegExp(`^after \\d+ s · deployment ${deploymentId}$`));
    expect(Number(/after (\d+) s/.exec(notice.body)![1]) * 1000).toBeGreaterThanOrEqual(LONG_JOB_MS);

    // The user clicks the notification: the app opens the run.
    await page.evaluate(() => (window as unknown as { __lastNotice: Notification }).__lastNotice.dispatchEvent(new Event('click')));
    await page.waitForURL((url) => url.pathname === `/deployments/${deploymentId}/tasks/${encodeURIComponent(run.jobId!)}`);
    const marked = page.getByRole('table', { name: 'Runs of scheduled tasks' }).locator('tr.selected');
    await marked.getByText('COMPLETED').waitFor({ timeout: 60_000 });
    await expect(marked.count()).resolves.toBe(1);
    expect(e2e.problems).toEqual([]);
  });
});
