import { readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * A file the UI build names by its content: under `assets/`, ending in `-<hash>.<ext>` (Vite's
 * eight-character hash). Its URL changes whenever its bytes do, so it never needs revalidating.
 */
const HASHED_ASSET = /^\/assets\/.+-[\w-]{8}\.\w+$/;

/**
 * How long a browser may keep a UI file: a hashed asset for a year without asking again
 * (`immutable`: not even on reload), anything else — index.html, which names the current assets —
 * only after asking whether it changed (`no-cache`, answered 304 by its validators). A page load
 * then asks for index.html alone instead of revalidating Monaco and every chunk (issue 25).
 */
export function uiCacheControl(file: string): string {
  return HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The files of the built UI, by the URL path that serves each: every file under the folder (not
 * dot files or dot folders), and `dir/` for each folder with an index.html (`/` is index.html) —
 * the routes @fastify/static registered, one per file. The folder is read on the first lookup.
 */
export class UiFiles {
  private files: Map<string, string> | null = null;

  constructor(private readonly root: string) {}

  /** The file (relative to the UI folder, with a leading `/`) that serves `url`, if any. */
  at(url: string): string | undefined {
    const rawPath = url.split('?', 1)[0]!;
    let path: string;
    try {
      // As the router matched file routes: percent-escapes decoded, except those of reserved characters (`%2F` stays).
      path = decodeURI(rawPath);
    } catch {
      return undefined;
    }
    return (this.files ??= this.read()).get(path);
  }

  private read(): Map<string, string> {
    const files = new Map<string, string>();
    for (const entry of readdirSync(this.root, { recursive: true, encoding: 'utf8' })) {
      const relative = entry.split('\\').join('/');
      if (relative.split('/').some((part) => part.startsWith('.'))) continue;
      try {
        if (!statSync(join(this.root, relative)).isFile()) continue;
      } catch {
        continue;
      }
      files.set(`/${relative}`, `/${relative}`);
      if (posix.basename(relative) === 'index.html') {
        const dir = posix.dirname(relative);
        files.set(dir === '.' ? '/' : `/${dir}/`, `/${relative}`);
      }
    }
    return files;
  }
}
