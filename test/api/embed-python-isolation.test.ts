import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PythonSandbox } from '../../src-main/features/embed-sessions/python-sandbox';
import { createDeployment } from '../support/deployments';
import { eventually, processAlive } from '../support/processes';
import { startTestService, type TestService } from '../support/service';

/**
 * Issue 23: a warm Python runner keeps what a script leaves behind (patched modules, `builtins`,
 * globals of `__main__`, a profile hook, the JavaScript globals object). A runner that ran a
 * dashboard's script therefore only ever runs that dashboard's scripts again: an editor of
 * dashboard A who plants hooks neither changes what dashboard B answers nor reads B's filters
 * (an embed tenant's security values) in A's next run. Runs of one dashboard share its warm runner
 * (its state persists, as documented) and a new dashboard takes a clean spare, so neither pays
 * Pyodide's start; at most two dashboards keep a runner, so memory stays bounded. Real service,
 * real runners, the service's own pool settings (two warm dashboards, one spare).
 */

const TENANT_SECRET = `tenant-secret-${randomBytes(8).toString('hex')}`;
const A_MARKER = 'planted-by-dashboard-a';

/** Every way a script can leave state for a later script in the same runner, each fed into `loot`. */
const PLANT = `
import builtins, json, sys
loot = ["${A_MARKER}"]
builtins.__dd_loot = loot
json.__dd_loot = loot
sys.modules['__main__'].__dd_loot = loot
stash = type(sys)('dd_loot')
stash.loot = loot
sys.modules['dd_loot'] = stash
_dumps = json.dumps
def dumps(obj, *args, **kwargs):
    loot.append(repr(obj))
    return _dumps({"hijacked": True})
json.dumps = dumps
_len = builtins.len
def spy_len(obj):
    loot.append(repr(obj))
    return _len(obj)
builtins.len = spy_len
def profile(frame, event, arg):
    if 'filters' in frame.f_globals:
        loot.append(repr(frame.f_globals['filters']))
sys.setprofile(profile)
try:
    import js
    js.dd_loot = loot
except Exception:
    pass
result = "planted"
`;

/** Prints whatever the hooks of PLANT collected, wherever it is reachable from. */
const COLLECT = `
import builtins, json, sys
found = []
for holder in (builtins, json, sys.modules['__main__'], sys.modules.get('dd_loot')):
    found += list(getattr(holder, '__dd_loot', None) or getattr(holder, 'loot', None) or [])
try:
    import js
    found += list(js.dd_loot)
except Exception:
    pass
print(found)
`;

/** Counts the runs this runner has served for its dashboard (state kept in `__main__`, on purpose). */
const COUNTER = `
import sys
main = sys.modules['__main__']
main.__dd_runs = getattr(main, '__dd_runs', 0) + 1
print(main.__dd_runs)
`;

/** Dashboard B: answers its tenant's region, and lists any of A's hooks it can see. */
const REPORT = `
import builtins, json, sys
region = filters[0]["values"][0]
planted = [name for name, seen in [
    ("builtins attribute", hasattr(builtins, "__dd_loot")),
    ("module attribute", hasattr(json, "__dd_loot")),
    ("__main__ global", hasattr(sys.modules["__main__"], "__dd_loot")),
    ("sys.modules entry", "dd_loot" in sys.modules),
    ("patched json.dumps", not json.dumps.__code__.co_filename.endswith("json/__init__.py")),
    ("patched builtins.len", type(builtins.len).__name__ != "builtin_function_or_method"),
    ("profile hook", sys.getprofile() is not None),
] if seen]
try:
    import js
    if hasattr(js, "dd_loot"):
        planted.append("JavaScript global")
except Exception:
    pass
result = {"region": region, "planted": planted}
`;

let svc: TestService;
let sandbox: PythonSandbox;
let dashboardA: string;
let dashboardB: string;
let dashboardC: string;
/** A run well within this took no Pyodide start (which takes seconds). */
const WARM_MS = 2_000;

async function publish(dep: number, name: string, widgets: Record<string, string>): Promise<string> {
  const created = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name } });
  expect(created.status, created.text).toBe(201);
  const config = {
    title: name,
    widgets: Object.entries(widgets).map(([id, python], i) => ({ id, type: 'TEXT', position: { x: 0, y: i * 2, w: 4, h: 2 }, config: { python } })),
  };
  const published = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks/${created.body.id}/publish`, { body: { config } });
  expect(published.status, published.text).toBe(200);
  return created.body.publicId as string;
}

beforeAll(async () => {
  svc = await startTestService();
  sandbox = new PythonSandbox(undefined, {});
  svc.ctx.services.pythonSandbox = sandbox;
  svc.ctx.onClose(() => sandbox.close());
  const dep = await createDeployment(svc);
  dashboardA = await publish(dep, 'dashboard a', { plant: PLANT, collect: COLLECT, counter: COUNTER });
  dashboardB = await publish(dep, 'dashboard b', { report: REPORT, counter: COUNTER });
  dashboardC = await publish(dep, 'dashboard c', { counter: COUNTER });
}, 120_000);
afterAll(async () => svc?.stop(), 60_000);

const run = (publicId: string, widgetId: string, filters: unknown[] = []) =>
  svc.call('POST', `/api/v1/embed/dashboard/${publicId}/python-run`, { body: { widgetId, filters } });

async function timed(publicId: string, widgetId: string) {
  const began = Date.now();
  const res = await run(publicId, widgetId);
  expect(res.status, res.text).toBe(200);
  return { ms: Date.now() - began, stdout: res.body.stdout as string };
}

/** Runner processes this test process started (Linux): their PIDs and resident memory in MB. */
function runnerProcesses(): { pid: number; rssMb: number }[] {
  const found: { pid: number; rssMb: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('python-runner')) continue;
      found.push({ pid: Number(entry), rssMb: Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024 });
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

describe('runners are bound to one dashboard', { timeout: 180_000 }, () => {
  it('hooks planted by dashboard A neither change what dashboard B answers nor let A’s next run read B’s filters', async () => {
    const planted = await run(dashboardA, 'plant');
    expect(planted.status, planted.text).toBe(200);
    const runnerOfA = sandbox.runnerPid(dashboardA);

    const secretFilter = [{ member: 'customers.region', operator: 'equals', values: [TENANT_SECRET] }];
    const report = await run(dashboardB, 'report', secretFilter);
    expect(report.status, report.text).toBe(200);
    expect(report.body.result).toEqual({ region: TENANT_SECRET, planted: [] });

    const collected = await run(dashboardA, 'collect');
    expect(collected.status, collected.text).toBe(200);
    expect(collected.text.includes(TENANT_SECRET), 'B’s filter value in A’s answer').toBe(false);
    // The hooks did take hold in A's own runner (its state persists between A's runs): the control.
    expect(collected.body.stdout).toContain(A_MARKER);
    expect(sandbox.runnerPid(dashboardA)).toBe(runnerOfA);
    expect(sandbox.runnerPid(dashboardB)).not.toBe(runnerOfA);
  });

  it('a new dashboard’s first run takes the ready spare and its second run the same warm runner: neither pays Pyodide’s start; state persists', async () => {
    expect(await sandbox.spareReady()).toBe(true);
    const spare = sandbox.sparePid();
    const first = await timed(dashboardC, 'counter');
    expect(sandbox.runnerPid(dashboardC)).toBe(spare);
    const second = await timed(dashboardC, 'counter');
    expect(sandbox.runnerPid(dashboardC)).toBe(spare);
    expect([first.stdout, second.stdout]).toEqual(['1\n', '2\n']);
    console.log(`python-run: first run of a new dashboard (ready spare) ${first.ms} ms, second run ${second.ms} ms; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    expect(first.ms).toBeLessThan(WARM_MS);
    expect(second.ms).toBeLessThan(WARM_MS);
  });

  it('two dashboards keep a warm runner: a third ends the least recently used one’s process; that dashboard comes back to a fresh runner', async () => {
    // Used in the order A, B, A, C: B is the least recently used, and was ended for C.
    const runnerOfA = sandbox.runnerPid(dashboardA)!;
    expect(sandbox.warmDomains()).toEqual([dashboardA, dashboardC]);
    expect(sandbox.runnerPid(dashboardB)).toBeNull();
    const again = await run(dashboardB, 'counter');
    expect(again.status, again.text).toBe(200);
    // What B's earlier runner held is gone with it; A, now least recently used, made room.
    expect(again.body.stdout).toBe('1\n');
    expect(sandbox.warmDomains()).toEqual([dashboardC, dashboardB]);
    expect(await eventually(() => !processAlive(runnerOfA))).toBe(true);
  });

  it.runIf(existsSync('/proc/self/status'))('the runner set is bounded: two warm dashboards and the spare, each under 350 MB resident', async () => {
    expect(await sandbox.spareReady()).toBe(true);
    const expected = [...sandbox.warmDomains().map((d) => sandbox.runnerPid(d)), sandbox.sparePid()];
    // Ended runners may take a moment to be reaped.
    expect(await eventually(() => runnerProcesses().length === expected.length)).toBe(true);
    const runners = runnerProcesses();
    expect(runners.map((r) => r.pid).sort()).toEqual(expected.sort());
    const total = runners.reduce((sum, r) => sum + r.rssMb, 0);
    console.log(`python-run: ${runners.length} runners, resident ${runners.map((r) => r.rssMb.toFixed(0)).join(' + ')} = ${total.toFixed(0)} MB; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    expect(runners.length).toBe(3);
    for (const runner of runners) expect(runner.rssMb).toBeLessThan(350);
  });
});
