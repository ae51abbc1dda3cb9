// The test files of a project folder (issue 26): `tests/*.yml`. Light on purpose: `drydock
// validate` reads them too, and loads the test runner only when there are some.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isModelTestPath, MODEL_TESTS_FOLDER } from '../../../src-shared/model/tests/schema';

/** Test files of a project folder, project-relative paths with `/`, sorted. */
export function readTestFiles(root: string): { path: string; content: string }[] {
  const dir = join(root, MODEL_TESTS_FOLDER);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `${MODEL_TESTS_FOLDER}${e.name}`)
    .filter(isModelTestPath)
    .sort()
    .map((path) => ({ path, content: readFileSync(join(root, path), 'utf8') }));
}
