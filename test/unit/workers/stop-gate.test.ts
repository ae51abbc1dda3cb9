// A worker thread stopped while it inflates: Node aborts the whole process when a thread is
// terminated between making a zlib handle and initialising it (node_zlib.cc "close before init").
// Through the stop gate (platform/workers/stop-gate.ts) a thread is only terminated outside zlib.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { newStopGate, stopSafely } from '../../../src-main/platform/workers/stop-gate';
import loopEntry from '../../support/inflate-loop-worker?modulePath';

const started = (worker: Worker) => new Promise<void>((resolve) => worker.once('message', () => resolve()));

describe('stopping a thread that inflates', () => {
  it('terminates it only outside zlib: 200 stops at random moments leave this process running', async () => {
    for (let i = 0; i < 200; i++) {
      const gate = newStopGate();
      const worker = new Worker(loopEntry, { workerData: { __stopGate: gate } });
      await started(worker);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      await stopSafely(gate);
      await worker.terminate();
    }
    // Still here: no abort took the process down.
    expect(true).toBe(true);
  }, 120_000);

  it('a thread asked to stop does not enter zlib again: its next call throws', async () => {
    const gate = newStopGate();
    const worker = new Worker(loopEntry, { workerData: { __stopGate: gate } });
    const messages: string[] = [];
    worker.on('message', (m: string) => messages.push(m));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await stopSafely(gate);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages[0]).toBe('inflating');
    expect(messages[1]).toBe('The task was stopped.');
    await worker.terminate();
  });
});
