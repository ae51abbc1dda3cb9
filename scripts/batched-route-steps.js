// Build plugin (start time, issue 10): Fastify adds one avvio step (`this.after(...)`) for every
// route it is given — an avvio Plugin with its own queue, a timeout record and a process.nextTick
// each — only to copy the instance's error handler and options into the route once the plugins
// registered before it have loaded. The service declares about 230 operations in a row at start:
// those steps were about a third of the CPU of declaring them and waiting for `ready` (measured in
// the built service: 232 routes, declare + ready 155 → 100 ms CPU without them, at load 14).
// This rewrite lets routes added one after another, with no other avvio step (plugin, `after`,
// another instance) in between, share one step that runs their callbacks in the same order: each
// still runs after everything registered before it and before anything registered after it, as
// before. The build fails if Fastify's source no longer has these lines (an upgrade must look at
// this again).
import { sourceRewrites } from './source-rewrites.js';

const REWRITES = {
  'fastify/lib/route.js': [
    [
      '  let avvio\n',
      '  let avvio\n' +
        '  // drydock (scripts/batched-route-steps.js): routes added in a row share one avvio step.\n' +
        '  let routeBatch = null\n' +
        '  let stepsAdded = 0\n' +
        '  function afterInBatch (step) {\n' +
        "    if (!Array.isArray(avvio._current) || avvio._addPlugin.name !== 'countedAddPlugin') return this.after(step)\n" +
        '    const current = avvio._current[0]\n' +
        '    const batch = routeBatch\n' +
        '    if (batch !== null && !batch.started && batch.stepsAdded === stepsAdded && batch.current === current && batch.server === this) {\n' +
        '      batch.steps.push(step)\n' +
        '      return\n' +
        '    }\n' +
        '    const next = { steps: [step], started: false, stepsAdded: -1, current, server: this }\n' +
        '    routeBatch = next\n' +
        '    this.after((notHandledErr, done) => {\n' +
        '      next.started = true\n' +
        '      if (routeBatch === next) routeBatch = null\n' +
        '      let i = 0\n' +
        '      const runNext = (err) => (i === next.steps.length ? done(err) : next.steps[i++](err, runNext))\n' +
        '      runNext(notHandledErr)\n' +
        '    })\n' +
        '    next.stepsAdded = stepsAdded\n' +
        '  }\n',
    ],
    [
      '      avvio = fastifyArgs.avvio\n',
      '      avvio = fastifyArgs.avvio\n' +
        '      // Every plugin and `after` goes through _addPlugin: a route may join a batch only if none came after it.\n' +
        '      const addPlugin = avvio._addPlugin\n' +
        '      avvio._addPlugin = function countedAddPlugin (...args) {\n' +
        '        stepsAdded++\n' +
        '        return addPlugin.apply(this, args)\n' +
        '      }\n',
    ],
    ['      this.after((notHandledErr, done) => {\n        // Send context async\n', '      afterInBatch.call(this, (notHandledErr, done) => {\n        // Send context async\n'],
  ],
};

/** Rolldown/Vite plugin: Fastify routes added in a row share one avvio step. */
export function batchedRouteSteps() {
  return sourceRewrites('batched-route-steps', REWRITES, 'Fastify');
}
