// Fastify as the build bundles it into out/main/vendor.cjs: published Fastify put through the given
// build-time rewrite plugins (scripts/*.js) by rolldown, written to a temporary CommonJS file and
// required from there. The tests of each rewrite run their rules against this and against Fastify as
// published.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown, type Plugin } from 'rolldown';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type FastifyFactory = typeof import('fastify').default;

export interface FastifyBundle {
  Fastify: FastifyFactory;
  /** The bundled source, to check that each rewrite found its place. */
  code: string;
  remove(): void;
}

export async function bundleFastifyWith(name: string, plugins: Plugin[]): Promise<FastifyBundle> {
  const dir = mkdtempSync(join(tmpdir(), `drydock-${name}-`));
  try {
    const entry = join(ROOT, `drydock-${name}-entry.cjs`);
    const bundle = await rolldown({
      input: entry,
      platform: 'node',
      cwd: ROOT,
      logLevel: 'silent',
      plugins: [{ name: 'entry', resolveId: (id) => (id === entry ? entry : null), load: (id) => (id === entry ? "module.exports = require('fastify');" : null) }, ...plugins],
    });
    const { output } = await bundle.generate({ format: 'cjs' });
    await bundle.close();
    const code = output[0].code;
    const file = join(dir, 'fastify.cjs');
    writeFileSync(file, code);
    return { Fastify: createRequire(file)(file) as FastifyFactory, code, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
