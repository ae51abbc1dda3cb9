/**
 * End-to-end harness: a real `drydock serve` process (built CLI, real SQLite, file secrets in a
 * temp dir) and Debian's chromium driven by playwright-core. Every e2e test of every screen
 * reuses this: `const e2e = await startE2E()` … `await e2e.teardown()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SCREENSHOT_DIR = join(ROOT, 'test-output', 'e2e');
export const E2E_API_KEY = 'dd_e2e_admin_key_0123456789abcdefghijklmnop';
export const CHROMIUM = process.env.DRYDOCK_E2E_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

// ---- what a failed test reports (failure-report.ts) -----------------------------------------

/** The services and pages of the running file, for the report of a test that fails. */
export const live = { servers: new Set<E2EServer>(), browsers: new Set<E2EBrowser>() };

// ---- the service -------------------------------------------------------------------------

export interface E2EServer {
  url: string;
  /** One-time login link printed by `serve --open-login`. */
  loginUrl: string;
  apiKey: string;
  dataDir: string;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** API calls with the admin key, to set up or check state behind the UI. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

export async function startServer(options: { env?: Record<string, string> } = {}): Promise<E2EServer> {
  const cli = join(ROOT, 'out', 'main', 'cli.js');
  if (!existsSync(cli)) throw new Error('Drydock is not built (out/main/cli.js is missing): run `npm run build`.');
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'drydock.js'), 'serve', '--data-dir', dataDir, '--secrets', 'file', '--port', '0', '--open-login'],
    { cwd: ROOT, env: { ...process.env, DRYDOCK_BOOTSTRAP_API_KEY: E2E_API_KEY, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const { url, loginUrl } = await new Promise<{ url: string; loginUrl: string }>((resolve, reject) => {
    // Generous: a cold start on a loaded CI machine can take tens of seconds.
    const deadline = setTimeout(() => fail(new Error(`drydock serve did not start within 90 s. Output:\n${output}`)), 90_000);
    const check = () => {
      const listening = /Drydock listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      const login = /(http:\/\/127\.0\.0\.1:\d+\/\?login=[\w-]+)/.exec(output);
      if (listening && login) {
        cleanup();
        resolve({ url: listening[1], loginUrl: login[1] });
      }
    };
    const onExit = (code: number | null) => fail(new Error(`drydock serve exited (${code}) before it was ready. Output:\n${output}`));
    const fail = (error: Error) => {
      cleanup();
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      reject(error);
    };
    const cleanup = () => {
      clearTimeout(deadline);
      child.stdout!.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', check);
    child.on('exit', onExit);
  });

  const api: E2EServer['api'] = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${E2E_API_KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  const server: E2EServer = {
    url,
    loginUrl,
    apiKey: E2E_API_KEY,
    dataDir,
    output: () => output,
    api,
    async stop() {
      live.servers.delete(server);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  live.servers.add(server);
  return server;
}

/**
 * The model's own answer to a query through the data API (`/cubejs-api/v1/load`), to compare what the
 * UI shows with. The API answers `{ error: 'Continue wait' }` while a query is still running (a cold
 * compile, a slow source on a loaded machine): this asks again, as the Cube client does, for up to
 * `timeoutMs`.
 */
export async function loadFromModel(server: E2EServer, deploymentId: number, query: unknown, timeoutMs = 120_000): Promise<Record<string, string>[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.api('POST', `/deployments/${deploymentId}/cubejs-api/v1/load`, { query });
    if (res.status !== 200) throw new Error(`The data API answered ${res.status}: ${JSON.stringify(res.body)}`);
    const body = res.body as { data?: Record<string, string>[]; error?: string };
    if (body.error !== 'Continue wait') {
      if (!body.data) throw new Error(`The data API answered no data: ${JSON.stringify(body)}`);
      return body.data;
    }
    if (Date.now() > deadline) throw new Error(`The data API still said "Continue wait" after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---- the browser -------------------------------------------------------------------------

/** Creates a deployment (the sample project on its deploy branch) through the API; returns its id. */
export async function createDeployment(server: E2EServer, name: string, deployMode: 'cli' | 'git' = 'cli'): Promise<number> {
  const created = await server.api('POST', '/build/api/v1/deployments/', { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode, storageProvider: { type: 'local' } });
  if (created.status !== 201) throw new Error(`Creating deployment ${name} answered ${created.status}: ${JSON.stringify(created.body)}`);
  return (created.body as { id: number }).id;
}

export interface E2EBrowser {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught page errors and CSP violations seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Where the app remembers that a user has seen the guided tour (src-renderer/src/features/tour/tour.ts):
 * per service profile and user id. The bootstrap admin is user 1 on the local service.
 */
export const TOUR_SEEN_KEY = 'drydock.tour.seen.local.1';

const SHARED_CHROMIUM = Symbol.for('drydock.e2e.chromium');

/**
 * The chromium of this worker process, launched with the first browser a file opens and kept for
 * the files after it (they share the process, vitest.e2e.config.ts); a new one if it went away.
 * Launching chromium with a profile of its own took about 2 s of a file's start and closing it
 * another 0.5 s; a context in a running chromium takes 0.4 s (issue 25). Kept on globalThis, which
 * outlives a re-evaluation of this module; Playwright ends it when the process exits.
 */
function sharedChromium(): Promise<Browser> {
  const holder = globalThis as { [SHARED_CHROMIUM]?: Promise<Browser> };
  const running = holder[SHARED_CHROMIUM];
  const launch = () => {
    const launching = chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    holder[SHARED_CHROMIUM] = launching;
    // A failed launch is not kept: the next file tries again.
    launching.catch(() => {
      if (holder[SHARED_CHROMIUM] === launching) delete holder[SHARED_CHROMIUM];
    });
    return launching;
  };
  if (!running) return launch();
  return running.then((browser) => (browser.isConnected() ? browser : launch()), launch);
}

/**
 * A fresh browser context (its own cookies, storage and cache: nothing of another file's or
 * another openBrowser's) in this process's chromium, with one page. The admin has seen the guided
 * tour already (it would open over the screen under test) unless `tourSeen: false`.
 */
export async function openBrowser(options: { tourSeen?: boolean } = {}): Promise<E2EBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (install Debian's chromium or set DRYDOCK_E2E_CHROMIUM).`);
  const browser = await sharedChromium();
  const context = await browser.newContext({
    viewport: { width: 1360, height: 860 },
    colorScheme: 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  if (options.tourSeen !== false) {
    await context.addInitScript((key) => {
      try {
        window.localStorage.setItem(key, 'seen before the test');
      } catch {
        // about:blank has no storage
      }
    }, TOUR_SEEN_KEY);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    // Chromium logs every 4xx response; the UI shows those to the user, so they are not problems.
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const opened: E2EBrowser = {
    context,
    page,
    problems,
    async close() {
      live.browsers.delete(opened);
      await context.close().catch(() => {});
    },
  };
  live.browsers.add(opened);
  return opened;
}

// ---- signing in ----------------------------------------------------------------------------

/** Opens the one-time login link and waits for the app shell. */
export async function signInWithLoginLink(page: Page, server: E2EServer): Promise<void> {
  await page.goto(server.loginUrl);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  expect(new URL(page.url()).searchParams.has('login'), 'the login code is stripped from the URL').toBe(false);
}

/** Uses the sign-in screen with the admin API key. */
export async function signInWithApiKey(page: Page, server: E2EServer, key = server.apiKey): Promise<void> {
  await page.goto(server.url);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

// ---- screenshots -----------------------------------------------------------------------------

/** Saves `test-output/e2e/<name>.png` (full page) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // Let fonts, transitions and lazily loaded chunks settle.
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/**
 * Screenshots `name` in a window `height` tall, scrolled to the top (the app scrolls inside its main
 * pane, so a full-page shot shows only the window), then restores the default size.
 */
export async function tallScreenshot(page: Page, name: string, height: number): Promise<void> {
  await page.setViewportSize({ width: 1360, height });
  await page.locator('.main').evaluate((el) => el.scrollTo({ top: 0 }));
  await screenshot(page, name);
  await page.setViewportSize({ width: 1360, height: 860 });
}

/** Screenshots `<name>-<width>x<height>` at the two window sizes every screen is checked at, then restores the default size. */
export async function screenshotsAtBothSizes(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1024, 768],
    [1600, 1000],
  ] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, `${name}-${width}x${height}`);
  }
  await page.setViewportSize({ width: 1360, height: 860 });
}

// ---- all together --------------------------------------------------------------------------

export interface E2E extends E2EBrowser {
  server: E2EServer;
  teardown(): Promise<void>;
}

/** Server + browser, signed in through the login link unless told otherwise. */
export async function startE2E(options: { signIn?: 'login-link' | 'none'; env?: Record<string, string>; tourSeen?: boolean } = {}): Promise<E2E> {
  // The service and the browser start at once: neither needs the other until the sign-in, and each
  // spends much of its start waiting on its own process (issue 25).
  const [started, opened] = await Promise.allSettled([startServer({ env: options.env }), openBrowser({ tourSeen: options.tourSeen })]);
  if (started.status === 'rejected' || opened.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    if (opened.status === 'fulfilled') await opened.value.close();
    throw started.status === 'rejected' ? started.reason : (opened as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const browser = opened.value;
  const e2e: E2E = {
    ...browser,
    server,
    async teardown() {
      await browser.close();
      await server.stop();
    },
  };
  if (options.signIn !== 'none') {
    try {
      await signInWithLoginLink(browser.page, server);
    } catch (error) {
      await e2e.teardown();
      throw error;
    }
  }
  return e2e;
}
