// A worker thread for test/unit/workers/stop-gate.test.ts: inflates in a loop, each call through the
// stop gate its workerData carries (or none), like the threads that read git objects.
import { parentPort, workerData } from 'node:worker_threads';
import { deflateSync, inflateSync } from 'node:zlib';
import { gatedTask, outsideStop } from '../../src-main/platform/workers/stop-gate';

const data = deflateSync(Buffer.alloc(4096, 'model file '));
const loop = gatedTask((_input: { __stopGate?: Int32Array }) => {
  parentPort!.postMessage('inflating');
  for (;;) outsideStop(() => inflateSync(data));
});
try {
  loop(workerData as { __stopGate?: Int32Array });
} catch (error) {
  parentPort!.postMessage((error as Error).name === 'Error' ? (error as Error).message : String(error));
}
