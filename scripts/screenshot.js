#!/usr/bin/env node
// `npm run screenshot`: the README's picture, docs/images/models.png — Models with the sample project
// and one file open, at 1440×900. Builds if needed, runs `drydock serve` on a fresh data dir (file
// secrets) and drives Debian's chromium (or DRYDOCK_E2E_CHROMIUM) with playwright-core through the
// one-time login link, as a first-time user would. `--out FILE` writes elsewhere, `--file NAME`
// opens another model file.
/* global document -- the page.evaluate callbacks run in the browser */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { ensureBuilt, ROOT } from './ensure-built.js';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: join(ROOT, 'docs', 'images', 'models.png') },
    file: { type: 'string', default: 'orders.yml' },
  },
});
const CHROMIUM = process.env.DRYDOCK_E2E_CHROMIUM ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1440, height: 900 };
/** The README embeds the picture; a larger file slows every clone and page view. */
const MAX_BYTES = 300 * 1024;
const START_TIMEOUT_MS = 90_000;

/** Starts `drydock serve` on a fresh data dir; resolves with its one-time login link. */
function serve(dataDir) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'drydock.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--secrets', 'file'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const loginLink = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`drydock serve printed no login link within ${START_TIMEOUT_MS / 1000} s:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk) => {
      output += chunk.toString();
      const link = /(http:\/\/127\.0\.0\.1:\d+\/\?login=[\w-]+)/.exec(output);
      if (link) {
        clearTimeout(timer);
        resolve(link[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`drydock serve exited (${code}) before it was ready:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { loginLink, stop };
}

async function takeScreenshot(loginLink, out) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'drydock-screenshot-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: VIEWPORT,
    colorScheme: 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(60_000);
    await page.goto(loginLink);
    await page.getByRole('button', { name: 'Open the sample project' }).click();
    const tree = page.getByRole('tree', { name: 'Model files' });
    const item = tree.getByRole('treeitem', { name: new RegExp(`^${args.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
    await item.waitFor();
    // The guided tour opens on a first run; the picture shows the screen itself.
    const skipTour = page.getByRole('button', { name: 'Skip the tour' });
    if (await skipTour.isVisible({ timeout: 5_000 }).catch(() => false)) await skipTour.click();
    await item.getByRole('button').first().click();
    await page.getByTestId('model-editor').locator('.view-lines').waitFor();
    // The in-window check finds the sample's one deliberate warning; wait for it (briefly: the UI may
    // word it differently one day, and the picture is still worth taking), then for fonts and
    // transitions. The page keeps an event stream open, so the network never goes idle.
    await page
      .getByRole('region', { name: 'Problems' })
      .getByLabel('1 warning')
      .waitFor({ timeout: 20_000 })
      .catch(() => console.warn('The Problems panel did not show the sample\'s warning; taking the picture anyway.'));
    await page.evaluate(() => document.fonts.ready);
    // Opening the file may scroll the screen's pane; show it from its heading.
    await page.evaluate(() => document.querySelectorAll('.main, main').forEach((el) => el.scrollTo({ top: 0 })));
    await page.mouse.move(VIEWPORT.width / 2, 70); // no hover highlight on the tree
    await page.waitForTimeout(1_500);
    mkdirSync(dirname(out), { recursive: true });
    await page.screenshot({ path: out, animations: 'disabled' });
  } finally {
    await context.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

if (!existsSync(CHROMIUM)) {
  console.error(`Chromium not found at ${CHROMIUM} (install Debian's chromium or set DRYDOCK_E2E_CHROMIUM).`);
  process.exit(1);
}
ensureBuilt();
const dataDir = mkdtempSync(join(tmpdir(), 'drydock-screenshot-'));
const service = serve(dataDir);
try {
  await takeScreenshot(await service.loginLink, args.out);
  const bytes = statSync(args.out).size;
  console.log(`${relative(process.cwd(), args.out)}: ${VIEWPORT.width}×${VIEWPORT.height}, ${Math.round(bytes / 1024)} KB`);
  if (bytes > MAX_BYTES) {
    console.error(`The picture is over ${MAX_BYTES / 1024} KB; the README embeds it, keep it smaller.`);
    process.exitCode = 1;
  }
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
