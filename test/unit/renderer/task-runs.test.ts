// Retry of a failed scheduled task run (issue 14 item 8): the same question again while the task is
// unchanged; refused in plain words once the task was deleted or changed after the run.
import { describe, expect, it } from 'vitest';
import { isRunNamed, scheduleText, taskRunReplay, taskState } from '../../../src-renderer/src/features/deployments/task-runs';

const task = { id: 't1', name: 'Weekly revenue', updatedAt: '2026-01-01T10:00:00.000Z' };
const run = { taskId: 't1', createdAt: '2026-01-01T10:05:00.000Z' };

describe('retrying a scheduled task run', () => {
  it('runs the same task again while it is unchanged since the run', () => {
    expect(taskRunReplay(run, task)).toEqual({ ok: true, body: { taskId: 't1' } });
  });

  it('is refused when the task was changed after the run, pointing to Run now', () => {
    const replay = taskRunReplay(run, { ...task, updatedAt: '2026-01-01T10:06:00.000Z' });
    expect(replay.ok).toBe(false);
    expect(!replay.ok && replay.reason).toMatch(/“Weekly revenue” was changed after this run.*Run now/);
  });

  it('is refused when the task is gone', () => {
    expect(taskRunReplay(run, undefined)).toEqual({ ok: false, reason: 'The task of this run was deleted, so it cannot run again.' });
    expect(taskRunReplay(run, { ...task, id: 't2' }).ok).toBe(false);
  });
});

describe('task words', () => {
  it('names the schedule and the state', () => {
    expect(scheduleText({ cron: null, timezone: 'UTC' })).toBe('manual only');
    expect(scheduleText({ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' })).toBe('0 9 * * 1-5 (Europe/Berlin)');
    expect([taskState({ cron: '0 9 * * *', enabled: true }), taskState({ cron: '0 9 * * *', enabled: false }), taskState({ cron: null, enabled: true })]).toEqual([
      'active',
      'paused',
      'manual',
    ]);
  });

  it('a path names a run by its id or its job id', () => {
    expect(isRunNamed({ id: 'r1', jobId: 'j1' }, 'r1')).toBe(true);
    expect(isRunNamed({ id: 'r1', jobId: 'j1' }, 'j1')).toBe(true);
    expect(isRunNamed({ id: 'r1', jobId: null }, undefined)).toBe(false);
  });
});
