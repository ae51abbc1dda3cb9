// Finding and reading the model files of a project folder, for `drydock validate`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isModelSourcePath, MODEL_FOLDERS, MODEL_LIMITS, type ModelFile } from '../../../src-shared/model';
import { CliError, ExitCodes } from '../output';

/** The model folders (`model`, `schema`) of a project folder; a CliError when it has none or is not a folder. */
export function modelFoldersOf(root: string): string[] {
  let stat;
  try {
    stat = statSync(root);
  } catch {
    throw new CliError('PROJECT_NOT_FOUND', `${root} does not exist.`, ExitCodes.UNREADABLE);
  }
  if (!stat.isDirectory()) throw new CliError('PROJECT_NOT_FOUND', `${root} is not a folder.`, ExitCodes.UNREADABLE);
  const folders = MODEL_FOLDERS.map((f) => f.replace(/\/$/, '')).filter((f) => isDirectory(join(root, f)));
  if (folders.length === 0) {
    throw new CliError(
      'NO_MODEL_FOLDER',
      `${root} has no ${MODEL_FOLDERS.join(' or ')} folder: pass the project folder, the one that contains model/.`,
      ExitCodes.UNREADABLE,
    );
  }
  return folders;
}

/** Model source files (YAML, JS and TS) under `folders` of `root`, paths relative to it with `/`, sorted. */
export function readModelFiles(root: string, folders: string[]): ModelFile[] {
  const files: ModelFile[] = [];
  // `path` is built on the way down: `relative` and a split per file were 15 % of reading 12,500.
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(full, `${path}/`);
      else if (entry.isFile()) {
        if (!isModelSourcePath(path)) continue;
        // A file that cannot fit the compiler's limit even at 3 bytes a character is refused unread (issue 23).
        const bytes = statSync(full).size;
        if (bytes > MODEL_LIMITS.fileChars * 3) files.push({ path, content: '', unreadBytes: bytes });
        else files.push({ path, content: readFileSync(full, 'utf8') });
      }
    }
  };
  for (const folder of folders) walk(join(root, folder), `${folder}/`);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
