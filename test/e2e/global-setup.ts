// The e2e tests run the built CLI and UI: build first when out/ is missing or stale.
// DRYDOCK_E2E_SKIP_BUILD=1 uses out/ as it is (e.g. right after `npm run build` in CI).
export default async function setup(): Promise<void> {
  if (process.env.DRYDOCK_E2E_SKIP_BUILD === '1') return;
  const script = '../../scripts/ensure-built.js';
  const { ensureBuilt } = (await import(script)) as { ensureBuilt: () => boolean };
  ensureBuilt();
}
