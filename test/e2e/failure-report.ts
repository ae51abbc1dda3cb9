/**
 * What the screen showed when an e2e test failed (a setup file of vitest.e2e.config.ts). A locator
 * that times out says only what it waited for; this adds, for every page the file has open, a
 * screenshot (`test-output/e2e/failed-<file>-<test>-try<attempt>-<page>.png`), its address, what it announces
 * (alerts, status, the busy indicators) and its console errors, and the last lines each running
 * service printed. A CI log is all there is of a failure on a fresh clone.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeEach } from 'vitest';
import { live, SCREENSHOT_DIR } from './support';

const SERVICE_LINES = 40;

/** A name that is safe as a file name and short enough to read in a listing. */
const slug = (text: string) => text.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80);

async function describePage(page: import('playwright-core').Page, shotPath: string): Promise<string> {
  const lines = [`  page ${page.url()}`];
  try {
    await page.screenshot({ path: shotPath, fullPage: true, animations: 'disabled', timeout: 5_000 });
    lines.push(`  screenshot ${shotPath}`);
  } catch (error) {
    lines.push(`  no screenshot: ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    const seen = await page.evaluate(() => {
      const text = (el: Element) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim().slice(0, 300);
      const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || el.tagName === 'DIALOG';
      return {
        heading: [...document.querySelectorAll('h1, h2')].filter(visible).slice(0, 4).map(text),
        alerts: [...document.querySelectorAll('[role="alert"], [role="status"], .problem-banner')].filter(visible).map(text).filter(Boolean),
        busy: document.querySelectorAll('[aria-busy="true"], .spinner').length,
        dialogs: [...document.querySelectorAll('dialog[open], [role="dialog"]')].filter(visible).map(text),
      };
    });
    lines.push(`  headings: ${JSON.stringify(seen.heading)}`);
    if (seen.alerts.length) lines.push(`  announced: ${JSON.stringify(seen.alerts)}`);
    if (seen.dialogs.length) lines.push(`  dialogs: ${JSON.stringify(seen.dialogs)}`);
    lines.push(`  busy indicators: ${seen.busy}`);
  } catch (error) {
    lines.push(`  page not readable: ${(error as Error).message.split('\n')[0]}`);
  }
  return lines.join('\n');
}

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const attempt = (task.result?.retryCount ?? 0) + 1;
    const name = `failed-${slug(basename(task.file?.name ?? 'e2e').replace(/\.e2e\.test\.ts$/, ''))}-${slug(task.name)}-try${attempt}`;
    const report = [`What the screen showed when "${task.name}" failed (attempt ${attempt}):`];
    let n = 0;
    for (const browser of live.browsers) {
      for (const page of browser.context.pages()) report.push(await describePage(page, join(SCREENSHOT_DIR, `${name}-${++n}.png`)));
      if (browser.problems.length) report.push(`  console and page errors: ${JSON.stringify(browser.problems.slice(-10))}`);
    }
    for (const server of live.servers) {
      const tail = server.output().trimEnd().split('\n').slice(-SERVICE_LINES).join('\n    ');
      report.push(`  ${server.url} printed (last ${SERVICE_LINES} lines):\n    ${tail}`);
    }
    console.error(report.join('\n'));
  });
});
