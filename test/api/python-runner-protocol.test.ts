import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PythonSandbox, type SandboxOutcome } from '../../src-main/features/embed-sessions/python-sandbox';
import { LINE_CAP } from '../../src-main/workers/python-protocol';

/**
 * Issue 23: the service believes nothing a runner writes that it did not ask for. A runner taken
 * over by its script (modelled by a hostile runner process, real, on the same pipes) may forge
 * replies, write garbage or endless lines: the run in flight fails as a sandbox violation, the
 * runner is killed, the service keeps bounded memory, and the next run is answered by a fresh
 * runner — never by a reply forged in advance.
 */

const HOSTILE_RUNNER = `
const mode = process.argv[2];
const out = (line) => process.stdout.write(line + '\\n');
if (mode === 'refuses') { out(JSON.stringify({ ready: false, message: "Node's permission model is not active (--permission)." })); process.exit(1); }
out(JSON.stringify({ ready: true }));
let pending = '';
let runs = 0;
process.stdin.on('data', (chunk) => {
  pending += chunk;
  const end = pending.indexOf('\\n');
  if (end === -1) return;
  const request = JSON.parse(pending.slice(0, end));
  pending = pending.slice(end + 1);
  runs++;
  const reply = (id, result) => JSON.stringify({ id, ok: true, resultJson: JSON.stringify(result), stdout: 'pid ' + process.pid + '\\n', stderr: '' });
  if (mode === 'honest' || runs > 1) return out(reply(request.id, 'honest'));
  if (mode === 'wrong-id') return out(reply('00000000-0000-0000-0000-000000000000', 'forged'));
  // Its own answer, and one forged in advance for whatever run comes next.
  if (mode === 'forges-ahead') return out(reply(request.id, 'first') + '\\n' + reply('next', 'forged'));
  if (mode === 'not-json') return out('{"id": nope');
  if (mode === 'endless-line') { const chunk = 'x'.repeat(1 << 20); const write = () => process.stdout.write(chunk, write); return write(); }
  if (mode === 'second-ready') return out(JSON.stringify({ ready: true }));
});
`;

let dir: string;
let runnerFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'drydock-hostile-runner-'));
  runnerFile = join(dir, 'hostile-runner.cjs');
  writeFileSync(runnerFile, HOSTILE_RUNNER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sandbox whose runners behave as `modes` says, one mode per runner started. */
function sandboxOf(...modes: string[]) {
  const started: string[] = [];
  const sandbox = new PythonSandbox(
    { timeoutMs: 10_000, memoryLimitBytes: 64 * 1024 * 1024 },
    {
      launch: async () => {
        const mode = modes[Math.min(started.length, modes.length - 1)]!;
        started.push(mode);
        return { command: process.execPath, args: [runnerFile, mode], env: {} };
      },
    },
  );
  return { sandbox, started };
}

const violation = (outcome: SandboxOutcome) => (outcome.kind === 'error' ? outcome.errorType : outcome.kind);
const resultOf = (outcome: SandboxOutcome) => (outcome.kind === 'ok' ? outcome.result : outcome.kind);

describe('what the service takes from a runner', { timeout: 60_000 }, () => {
  it('a reply to a run that was not asked (another id) is a sandbox violation; the runner is killed and a fresh one answers the next run', async () => {
    const { sandbox, started } = sandboxOf('wrong-id', 'honest');
    const first = await sandbox.run('d', 'x', {});
    expect(violation(first)).toBe('SandboxViolation');
    expect(await sandbox.run('d', 'x', {}).then(resultOf)).toBe('honest');
    // The fresh one was the clean spare; another spare starts behind it.
    expect(started.slice(0, 2)).toEqual(['wrong-id', 'honest']);
    await sandbox.close();
  });

  it('a reply forged in advance for the next run is never taken as its answer', async () => {
    const { sandbox, started } = sandboxOf('forges-ahead', 'honest');
    const first = await sandbox.run('d', 'x', {});
    // The runner's own reply may come first; what it wrote next for a run nobody asked is a violation.
    expect(['first', 'error']).toContain(resultOf(first));
    // The forged line kills its runner whenever it arrives: the next runs are a fresh runner's.
    const next = [await sandbox.run('d', 'x', {}), await sandbox.run('d', 'x', {})].map(resultOf);
    expect(next).not.toContain('forged');
    expect(next[1]).toBe('honest');
    expect(started.slice(0, 2)).toEqual(['forges-ahead', 'honest']);
    await sandbox.close();
  });

  it('a line that is not JSON, or a second start message, is a sandbox violation', async () => {
    for (const mode of ['not-json', 'second-ready']) {
      const { sandbox } = sandboxOf(mode, 'honest');
      expect(violation(await sandbox.run('d', 'x', {})), mode).toBe('SandboxViolation');
      expect(await sandbox.run('d', 'x', {}).then(resultOf)).toBe('honest');
      await sandbox.close();
    }
  });

  it(`an endless line is cut off at ${LINE_CAP} characters: a violation, the service's memory bounded`, async () => {
    const { sandbox } = sandboxOf('endless-line', 'honest');
    const before = process.memoryUsage().rss;
    const outcome = await sandbox.run('d', 'x', {});
    expect(violation(outcome)).toBe('SandboxViolation');
    expect(outcome.kind === 'error' && outcome.message).toMatch(/longer than/);
    // At most the cap (UTF-16 in memory) and the pipe's buffers, not what the runner could write in 10 s.
    expect(process.memoryUsage().rss - before).toBeLessThan(4 * LINE_CAP);
    expect(await sandbox.run('d', 'x', {}).then(resultOf)).toBe('honest');
    await sandbox.close();
  });

  it('a runner that refuses to start (its guarantees missing) makes the run unavailable, with its reason', async () => {
    const { sandbox } = sandboxOf('refuses');
    const outcome = await sandbox.run('d', 'x', {});
    expect(outcome).toEqual({ kind: 'unavailable', message: "The Python runtime could not start: Node's permission model is not active (--permission)." });
    await sandbox.close();
  });
});
