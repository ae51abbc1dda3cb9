// Model shards read a commit's files straight from git objects (workers/model-source.ts): loose
// objects natively, packed ones through the repository's reader. Whichever way, a file reads as
// git wrote it, and an object whose bytes do not match its id is never taken for the file.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { modelFilesOfCommit, readBlobs } from '../../../src-main/workers/model-source';
import { gitIn as git } from '../../support/git-cli';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});


const FILES: Record<string, string> = {
  'model/cubes/orders.yml': 'cubes:\n  - name: orders\n    sql_table: public.orders\n    description: "Ünïcode — and more"\n',
  'model/views/sales.yml': 'views:\n  - name: sales\n    cubes:\n      - join_path: orders\n        includes: "*"\n',
  'README.md': 'not a model file\n',
};

/** A bare repository with FILES committed by the git CLI; its gitdir and commit. */
function repository(): { gitdir: string; commit: string } {
  const work = mkdtempSync(join(tmpdir(), 'drydock-model-source-'));
  dirs.push(work);
  git(work, 'init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(FILES)) {
    execFileSync('mkdir', ['-p', join(work, path, '..')]);
    writeFileSync(join(work, path), content);
  }
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'model');
  return { gitdir: join(work, '.git'), commit: git(work, 'rev-parse', 'HEAD') };
}

const blobId = (gitdir: string, commit: string, path: string) => git(gitdir, 'rev-parse', `${commit}:${path}`);

describe('reading model files from git objects', () => {
  it('reads loose blobs as git wrote them, model files only, sorted by path', async () => {
    const { gitdir, commit } = repository();
    const files = await modelFilesOfCommit(gitdir, commit);
    expect(files).toEqual([
      { path: 'model/cubes/orders.yml', content: FILES['model/cubes/orders.yml'] },
      { path: 'model/views/sales.yml', content: FILES['model/views/sales.yml'] },
    ]);
  });

  it('reads packed blobs the same (after git gc leaves no loose objects)', async () => {
    const { gitdir, commit } = repository();
    git(gitdir, 'gc', '-q', '--prune=now');
    expect(git(gitdir, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    const id = blobId(gitdir, commit, 'model/cubes/orders.yml');
    expect(await readBlobs(gitdir, [id])).toEqual([FILES['model/cubes/orders.yml']]);
  });

  it('does not take a loose object whose bytes do not match its id for the file', async () => {
    const { gitdir, commit } = repository();
    const id = blobId(gitdir, commit, 'model/cubes/orders.yml');
    const file = join(gitdir, 'objects', id.slice(0, 2), id.slice(2));
    const forged = Buffer.from(inflateSync(readFileSync(file)).toString('latin1').replace('orders', 'forged'), 'latin1');
    chmodSync(file, 0o644);
    writeFileSync(file, deflateSync(forged));
    const read = readBlobs(gitdir, [id]).then(
      (texts) => texts[0],
      () => 'refused',
    );
    expect(await read).not.toContain('forged');
  });
});
