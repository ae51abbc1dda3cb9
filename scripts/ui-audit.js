#!/usr/bin/env node
// `npm run ui-audit`: the whole screen-by-screen audit — layout at 1024×768, 1366×768 and 1920×1080,
// axe-core in the light and the dark theme, the keyboard on every screen (`npm test` runs the sizes
// the UI is judged at and the light theme). Builds first when out/ is stale.
import './check-node.js';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const files = ['test/e2e/layout.e2e.test.ts', 'test/e2e/accessibility.e2e.test.ts'];
const result = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...files, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DRYDOCK_UI_AUDIT: 'full' },
});
process.exit(result.status ?? 1);
