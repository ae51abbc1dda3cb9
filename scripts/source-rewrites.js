// One way the build rewrites a library's source (start time, issue 10): exact text replacements in
// named files under node_modules, applied when rolldown bundles them. A replacement whose text is no
// longer in the file fails the build, so an upgrade of the library never silently drops a rewrite.

/**
 * A rolldown/Vite plugin applying `rewrites`: for each file (a path under node_modules, e.g.
 * `fastify/lib/route.js`), the [from, to] pairs in order.
 * @param {string} name the rewrite's script, without `.js` (named in errors)
 * @param {Record<string, [string, string][]>} rewrites
 * @param {string} library what changed when a `from` is missing (for the error)
 */
export function sourceRewrites(name, rewrites, library) {
  return {
    name: `drydock:${name}`,
    transform(code, id) {
      const file = Object.keys(rewrites).find((suffix) => id.replaceAll('\\', '/').endsWith(`/node_modules/${suffix}`));
      if (!file) return null;
      let result = code;
      for (const [from, to] of rewrites[file]) {
        if (!result.includes(from)) throw new Error(`${name}: ${file} no longer contains\n  ${from}\n(${library} changed; see scripts/${name}.js)`);
        result = result.replace(from, to);
      }
      return { code: result, map: null };
    },
  };
}
