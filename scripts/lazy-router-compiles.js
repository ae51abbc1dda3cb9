// Build plugin (start time, issue 10): find-my-way, Fastify's router, compiles small functions with
// `new Function` while routes are added — a prefix matcher for every node of its tree (again at
// every split), a params builder and a constraint matcher for every handler. With ~230 operations
// that is about a thousand compiles at start, most for nodes and handlers a request never reaches
// before the tree changes again. This rewrites those three spots to compile the very same source
// on first call, and to write that source on first call too (building those strings was 4–5 ms of
// a start). Lookups behave the same; only when the source is written and compiled changes. The
// build fails if find-my-way's source no longer has these lines (an upgrade must look at this again).
import { sourceRewrites } from './source-rewrites.js';

const REWRITES = {
  'find-my-way/lib/node.js': [
    // The matcher's source too is written on first call (from `prefix`, which does not change).
    [
      '  const lines = []\n  for (let i = 1; i < prefix.length; i++) {',
      '  let compiled = null\n' +
        '  return function matchPrefix (path, i) { return (compiled ??= compileSource())(path, i) }\n' +
        '  function compileSource () {\n' +
        '  const lines = []\n  for (let i = 1; i < prefix.length; i++) {',
    ],
    [
      "return new Function('path', 'i', `'use strict'\\nreturn ${lines.join(' && ')}`) // eslint-disable-line",
      "return new Function('path', 'i', `'use strict'\\nreturn ${lines.join(' && ')}`) // eslint-disable-line\n  }",
    ],
  ],
  'find-my-way/lib/handler-storage.js': [
    // The params builder's source too is written on first call (from the route's `params`, which do not change).
    [
      "  _compileCreateParamsObject (params) {\n    const fnBody = [\"'use strict'\"]\n",
      '  _compileCreateParamsObject (params) {\n' +
        '    let compiled = null\n' +
        '    return function _createParamsObject (param0, param1, param2, param3, extraParams) {\n' +
        '      return (compiled ??= compileSource())(param0, param1, param2, param3, extraParams)\n' +
        '    }\n' +
        '    function compileSource () {\n' +
        "    const fnBody = [\"'use strict'\"]\n",
    ],
    [
      "return new Function('NullObject', fnBody.join('\\n'))(NullObject)  // eslint-disable-line",
      "return new Function('NullObject', fnBody.join('\\n'))(NullObject)  // eslint-disable-line\n    }",
    ],
    // The constraint matcher's source is written on first call from the storage's handlers and
    // constraints as they are then: only addHandler changes them, and it installs a new matcher.
    [
      "    const lines = [\"'use strict'\"]\n",
      "    const writeSource = () => {\n    const lines = [\"'use strict'\"]\n",
    ],
    [
      "this._getHandlerMatchingConstraints = new Function('derivedConstraints', lines.join('\\n')) // eslint-disable-line",
      "return lines.join('\\n')\n" +
        '    }\n' +
        '    let compiled = null\n' +
        '    this._getHandlerMatchingConstraints = function (derivedConstraints) {\n' +
        "      return (compiled ??= new Function('derivedConstraints', writeSource())).call(this, derivedConstraints) // eslint-disable-line\n" +
        '    }',
    ],
  ],
};

/** Rolldown/Vite plugin: find-my-way compiles its lookup helpers on first use instead of when a route is added. */
export function lazyRouterCompiles() {
  return sourceRewrites('lazy-router-compiles', REWRITES, 'find-my-way');
}
