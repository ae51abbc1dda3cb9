// Build plugin (start time, issue 10): things Fastify does for every route it is given that
// the service, declaring ~230 operations at start, pays for without use.
// 1. `router.findRoute('HEAD', url)` — a second walk of the router for every route — only to know
//    whether to add an automatic HEAD route; with `exposeHeadRoutes: false` (server.ts) the answer
//    is never read. It now runs only where a HEAD route may be added.
// 2. One `avvio.once('preReady', …)` listener per route (a once-wrapper, its bound function and a
//    slot in the listener array, each removed again on emit by a scan of that array). Routes whose
//    steps register their listeners one right after the other (a batch of scripts/batched-route-steps.js
//    runs them in a row) now share one listener that calls their callbacks in the same order: a
//    listener registered by anything else in between starts a new shared one, so the order of
//    every callback relative to every other preReady listener is kept.
// 3. Each route's lifecycle hooks: for each of the ten hook names Fastify concatenated the
//    instance's hooks with the route's and bound every one to the instance again (≈ 20 arrays and
//    the bound functions per route). The instance's bound hooks are now made once per instance
//    and hook list and shared by the routes that add none of their own (Fastify only reads these
//    arrays); a route's own hooks still come after the instance's.
// The build fails if Fastify's source no longer has these lines (an upgrade must look at this again).
// (4., the map of serializers by status, is below.) Figures: README, Performance.
import { sourceRewrites } from './source-rewrites.js';

const HELPERS =
  '  // drydock (scripts/lean-route-contexts.js): routes registered in a row share one preReady listener.\n' +
  '  let preReadyBatch = null\n' +
  '  function oncePreReadyInBatch (callback) {\n' +
  "    const listeners = avvio.rawListeners('preReady')\n" +
  '    const batch = preReadyBatch\n' +
  '    if (batch !== null && !batch.fired && listeners.length > 0 && listeners[listeners.length - 1] === batch.listener) {\n' +
  '      batch.callbacks.push(callback)\n' +
  '      return\n' +
  '    }\n' +
  '    const next = { callbacks: [callback], fired: false, listener: null }\n' +
  '    next.listener = function runPreReadyBatch () {\n' +
  "      avvio.removeListener('preReady', runPreReadyBatch)\n" +
  '      next.fired = true\n' +
  '      if (preReadyBatch === next) preReadyBatch = null\n' +
  '      for (let i = 0; i < next.callbacks.length; i++) next.callbacks[i]()\n' +
  '    }\n' +
  '    preReadyBatch = next\n' +
  "    avvio.on('preReady', next.listener)\n" +
  '  }\n' +
  '  // drydock (scripts/lean-route-contexts.js): an instance\'s lifecycle hooks, bound to it once per hook list.\n' +
  '  const boundInstanceHooks = new WeakMap()\n' +
  '  function routeHooks (server, hook, own) {\n' +
  '    const source = server[kHooks][hook]\n' +
  '    let cached = boundInstanceHooks.get(source)\n' +
  '    if (cached === undefined || cached.server !== server || cached.length !== source.length) {\n' +
  '      cached = { server, length: source.length, bound: source.map(h => h.bind(server)) }\n' +
  '      boundInstanceHooks.set(source, cached)\n' +
  '    }\n' +
  '    if (own === undefined || own === null) return cached.bound.length ? cached.bound : null\n' +
  '    const toSet = cached.bound.concat([].concat(own).map(h => h.bind(server)))\n' +
  '    return toSet.length ? toSet : null\n' +
  '  }\n';

const REWRITES = {
  'fastify/lib/route.js': [
    // At the top of buildRouting: its other functions come after its `return`, where a `let` never runs.
    ['function buildRouting (options) {\n', 'function buildRouting (options) {\n' + HELPERS],
    [
      '      const headHandler = router.findRoute(\'HEAD\', opts.url, constraints)\n      const hasHEADHandler = headHandler !== null\n',
      '      // drydock (scripts/lean-route-contexts.js): only read where a HEAD route may be added.\n' +
        "      const hasHEADHandler = shouldExposeHead && isGetRoute && !isHeadRoute ? router.findRoute('HEAD', opts.url, constraints) !== null : true\n",
    ],
    [
      "        avvio.once('preReady', () => {\n" +
        '          for (const hook of lifecycleHooks) {\n' +
        '            const toSet = this[kHooks][hook]\n' +
        '              .concat(opts[hook] || [])\n' +
        '              .map(h => h.bind(this))\n' +
        '            context[hook] = toSet.length ? toSet : null\n' +
        '          }\n',
      '        oncePreReadyInBatch(() => {\n' +
        '          for (let h = 0; h < lifecycleHooks.length; h++) {\n' +
        '            const hook = lifecycleHooks[h]\n' +
        '            context[hook] = routeHooks(this, hook, opts[hook] || undefined)\n' +
        '          }\n',
    ],
  ],
};

// 4. The map of compiled serializers by status (context[kSchemaResponse]) starts as an object whose
//    elements were once sparse: see statusMap() in src-main/http/route.ts (a new `{}` given the
//    key `200` holds ~2.6 KB of element slots; this one ~0.2 KB).
// 5. Loops over fixed arrays run per route, at start, before V8 optimises them: `for (… of …)` there
//    made an iterator result per step (about 0.4 MB at start with the preReady loop above, in a
//    sampling allocation profile); indexed loops make none. Same order, same arrays.
REWRITES['fastify/lib/route.js'].push([
  '      for (const hook of lifecycleHooks) {\n        if (opts && hook in opts) {\n',
  '      for (let h = 0; h < lifecycleHooks.length; h++) {\n        const hook = lifecycleHooks[h]\n        if (opts && hook in opts) {\n',
]);
const INDEXED_SCHEMA_LOOPS = [
  ['  for (const key of SCHEMAS_SOURCE) {\n', '  for (let k = 0; k < SCHEMAS_SOURCE.length; k++) {\n    const key = SCHEMAS_SOURCE[k]\n'],
  ['    for (const code of httpCodes) {\n', '    for (let c = 0; c < httpCodes.length; c++) {\n      const code = httpCodes[c]\n'],
];
// Each loop appears twice (generateFluentSchema and normalizeSchema): each pair replaces one.
REWRITES['fastify/lib/schemas.js'] = [...INDEXED_SCHEMA_LOOPS, ...INDEXED_SCHEMA_LOOPS];

REWRITES['fastify/lib/validation.js'] = [
  [
    '      return acc\n    }, {})\n}\n',
    '      return acc\n' +
      '    }, statusMap())\n' +
      '}\n' +
      '// drydock (scripts/lean-route-contexts.js): status keys kept in a small dictionary, not ~2.6 KB of slots.\n' +
      'function statusMap () {\n' +
      '  const map = {}\n' +
      '  map[1e7] = undefined\n' +
      '  delete map[1e7]\n' +
      '  return map\n' +
      '}\n',
  ],
];

/** Rolldown/Vite plugin: Fastify does less per route when routes are declared (see above). */
export function leanRouteContexts() {
  return sourceRewrites('lean-route-contexts', REWRITES, 'Fastify');
}
