import fs from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filePathProblem } from '../../../src-shared/api/file-paths';
import { caseTwins } from '../../../src-shared/paths/portable-path';
import type { FileWrite } from './repository';

/**
 * Folder of the sample project shipped in `resources/sample-project/`: `DRYDOCK_SAMPLE_PROJECT`
 * when set, else the nearest `resources/sample-project` above this module (works from the source
 * tree and from the bundled `out/main`). Null when there is none.
 */
export function findSampleProjectDir(): string | null {
  const fromEnv = process.env.DRYDOCK_SAMPLE_PROJECT;
  if (fromEnv) return fs.existsSync(fromEnv) ? fromEnv : null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'resources', 'sample-project');
    if (fs.existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/**
 * The sample project's `model/**` files as repository files (`model/cubes/orders.yml`…), sorted by
 * path. A file whose path the repository rules refuse (issue 23: a name git reserves, one Windows
 * cannot hold, a case twin…) is left out and named to `onSkipped` with the reason.
 */
export function readSampleModelFiles(projectDir: string | null = findSampleProjectDir(), onSkipped?: (path: string, reason: string) => void): FileWrite[] {
  if (!projectDir) return [];
  const modelDir = join(projectDir, 'model');
  if (!fs.existsSync(modelDir)) return [];
  const files: FileWrite[] = [];
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) files.push({ path: relative(projectDir, full).split(sep).join('/'), content: fs.readFileSync(full) });
    }
  };
  visit(modelDir);
  const accepted = files.filter((file) => {
    const problem = filePathProblem(file.path);
    if (problem) onSkipped?.(file.path, problem.detail);
    return problem === null;
  });
  const twins = new Set(caseTwins([], accepted.map((f) => f.path)).map((t) => t.path));
  for (const path of twins) onSkipped?.(path, `"${path}" differs from another sample file only in case or Unicode normalisation.`);
  return accepted.filter((f) => !twins.has(f.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
