// A process of its own that watches a service's HTTP thread for `npm run bench -- scale`: the
// benchmark's own process holds the generated model (50 MB of text) and what its in-process compiles
// left, and its garbage collections showed up as slow health answers (158 ms once, for the
// benchmark's own pause, not the service's). Run by Node directly (its type stripping), no imports
// beyond Node's own.
//
//   node http-thread-watch.ts <pid> <port>
// stdin: `open` starts a measured window, `close` ends it, `report` prints the figures of the
// windows since the last report as one JSON line ({ healthMax, onCpuMax, failure }) and starts over.
// Meanwhile: a health request every 5 ms (the slowest answer inside a window), and the thread's run
// time and state from /proc every 1 ms. Sampled from outside, one turn of the thread spans many
// samples: it lasts while the thread is found running or waiting for a CPU (not asleep), and
// `onCpuMax` is the most run time one turn took inside a window — what a quiet machine would make
// a request wait, without the time the thread waited for a core.
import { openSync, readSync } from 'node:fs';
import http from 'node:http';
import { createInterface } from 'node:readline';

const pid = Number(process.argv[2]);
const port = Number(process.argv[3]);
// The watcher shares the machine's 2 cores with the service it measures: the two /proc files stay
// open and are read again from their start, and the health requests share one kept-alive connection
// (a connection each cost the service's HTTP thread an accept and a close per answer). Opening the
// files each millisecond and a connection per request, the watcher and the answers it asked for
// took 970 and 600 ms of CPU in 5 s of an idle service, 29 % of a core; this way 640 and 400 ms.
const schedstat = openSync(`/proc/${pid}/task/${pid}/schedstat`, 'r');
const stat = openSync(`/proc/${pid}/task/${pid}/stat`, 'r');
const page = Buffer.alloc(1024);
const readProc = (fd: number): string => page.toString('latin1', 0, readSync(fd, page, 0, page.length, 0));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

let open = false;
let healthMax = 0;
let onCpuMax = 0;
let failure: string | null = null;

const runNs = () => Number(readProc(schedstat).split(' ')[0]);
/** Whether the thread is running or waiting for a CPU (state R), not asleep in the event loop. */
const busy = () => {
  const text = readProc(stat);
  return text[text.lastIndexOf(')') + 2] === 'R';
};
let last = runNs();
/** Run time of the turn under way, in ns. */
let turn = 0;
const sampler = setInterval(() => {
  let now: number;
  let running: boolean;
  try {
    now = runNs();
    running = busy();
  } catch {
    return; // the process ended
  }
  turn += now - last;
  last = now;
  if (open) onCpuMax = Math.max(onCpuMax, turn / 1e6);
  if (!running) turn = 0;
}, 1);

function health(): Promise<number | string> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v1/health', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : `health: ${res.statusCode}`));
    });
    req.on('error', (error) => resolve(`health: ${error.message}`));
  });
}

let running = true;
const prober = (async () => {
  while (running) {
    const wasOpen = open;
    const answer = await health();
    if (typeof answer === 'string') failure ??= answer;
    else if (wasOpen && open) healthMax = Math.max(healthMax, answer);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
})();

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'open') open = true;
  else if (line === 'close') open = false;
  else if (line === 'report') {
    process.stdout.write(`${JSON.stringify({ healthMax, onCpuMax, failure })}\n`);
    healthMax = 0;
    onCpuMax = 0;
    failure = null;
  }
}
running = false;
clearInterval(sampler);
await prober;
agent.destroy();
