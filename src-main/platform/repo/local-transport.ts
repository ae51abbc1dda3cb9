import fs from 'node:fs';
import { gitFs, isIntactLooseObject, looseObjectFile } from './durable-fs';
import git from 'isomorphic-git';
import { isAncestor } from './divergence';
import { writeLooseObject, type ObjectType } from './loose-object';
import { packedObjectsOf, readAnyObjectSync } from './packed-object';
import { writePack, type PackObject } from './pack-writer';
import { consolidatePacksWhenMany } from './pack-consolidation';
import { turnEvery } from '../jobs/types';
import { RemoteError } from './remote-error';
import { GitRepository } from './repository';

/**
 * The transport to a bare repository on this disk (the local repository host): objects are copied
 * between the two object stores, refs moved with the same compare-and-set as any local write.
 *
 * Objects are read natively (packed-object.ts) and written loose or as a pack (loose-object.ts,
 * pack-writer.ts): through isomorphic-git, which inflates and deflates in JavaScript, copying a
 * 10,000-cube model's 12,507 objects took 21 s of the HTTP thread (issue 28).
 */

/** Fewer objects than this are written loose, more as a pack (git's `transfer.unpackLimit`). */
const UNPACK_LIMIT = 100;
/**
 * Bytes of objects a copy holds before it writes them as a pack: its memory stays bounded, and
 * indexing one pack's objects stays a short stretch of the thread (8–20 ms for 8,000 objects).
 */
const PACK_BYTES = 16 * 1024 * 1024;
/** Most of a thread's time the walk takes before other work gets a turn. */
const SLICE_MS = 8;

/** Whether the repository at `gitdir` holds object `oid` whole, loose or in a pack listed in `packed`. */
async function has(gitdir: string, oid: string, packed: (oid: string) => boolean): Promise<boolean> {
  // A loose object counts only when whole: a damaged one is copied again (and so replaced).
  const loose = looseObjectFile(gitdir, oid);
  if (fs.existsSync(loose)) return isIntactLooseObject(loose, oid);
  return packed(oid);
}

/** Object `oid` of the repository at `gitdir`: natively, or through isomorphic-git, which says what is wrong with a damaged one. */
async function readObject(gitdir: string, oid: string): Promise<{ type: ObjectType; object: Uint8Array }> {
  const native = readAnyObjectSync(gitdir, oid);
  if (native) return { type: native.type, object: native.content };
  const read = await git.readObject({ fs: gitFs, gitdir, oid, format: 'content' });
  return { type: read.type as ObjectType, object: read.object as Uint8Array };
}

async function writeObject(gitdir: string, { oid, type, content }: PackObject): Promise<void> {
  const written = await writeLooseObject(gitdir, type, content);
  if (written !== oid) throw new Error(`Object ${oid} was written as ${written}: its bytes changed in the copy.`);
}

/** Objects an object points at: a commit's tree and parents, a tree's entries, a tag's target. */
function referencedBy(type: ObjectType, object: Uint8Array): string[] {
  if (type === 'blob') return [];
  if (type === 'tree') {
    const out: string[] = [];
    // Tree entries: "<mode> <name>\0<20-byte id>"; submodule entries (mode 160000) point outside.
    let i = 0;
    while (i < object.length) {
      const space = object.indexOf(0x20, i);
      const nul = object.indexOf(0x00, space);
      const mode = Buffer.from(object.subarray(i, space)).toString('latin1');
      const oid = Buffer.from(object.subarray(nul + 1, nul + 21)).toString('hex');
      if (mode !== '160000') out.push(oid);
      i = nul + 21;
    }
    return out;
  }
  const text = Buffer.from(object).toString('utf8');
  const header = text.slice(0, text.indexOf('\n\n') === -1 ? text.length : text.indexOf('\n\n'));
  return header
    .split('\n')
    .map((line) => /^(tree|parent|object) ([0-9a-f]{40})$/.exec(line)?.[2])
    .filter((oid): oid is string => oid !== undefined);
}

/**
 * Copies into `to` every object reachable from `head` that `to` lacks. An object is written only
 * after everything it points at, so an interrupted copy never leaves a commit without its history
 * (and "present" keeps meaning "present with everything below it"). As git keeps a fetch, a few
 * objects are written loose and more as a pack (pack-writer.ts), one pack for every PACK_BYTES of
 * them so the copy holds no more than that. `signal` stops it between two objects; what was
 * copied by then stays, each object whole with everything below it.
 */
export async function copyMissingObjects(from: string, to: string, head: string, signal?: AbortSignal): Promise<number> {
  let copied = 0;
  const done = new Set<string>();
  const packed = packedObjectsOf(to);
  const stack: { oid: string; expanded: boolean; type?: ObjectType; object?: Uint8Array }[] = [{ oid: head, expanded: false }];
  // Objects read and not written yet, each after what it points at.
  let waiting: PackObject[] = [];
  let waitingBytes = 0;
  let packs = 0;
  const write = async () => {
    if (waiting.length >= UNPACK_LIMIT || waitingBytes >= PACK_BYTES) {
      await writePack(to, waiting, signal);
      packs++;
    } else for (const object of waiting) await writeObject(to, object);
    waiting = [];
    waitingBytes = 0;
  };
  // Objects are read synchronously: other work gets a turn every SLICE_MS.
  const turn = turnEvery(SLICE_MS);
  while (stack.length > 0) {
    await turn();
    signal?.throwIfAborted();
    const frame = stack[stack.length - 1]!;
    if (done.has(frame.oid)) {
      stack.pop();
      continue;
    }
    if (!frame.expanded) {
      if (await has(to, frame.oid, packed)) {
        done.add(frame.oid);
        stack.pop();
        continue;
      }
      const read = await readObject(from, frame.oid);
      frame.type = read.type;
      frame.object = read.object;
      frame.expanded = true;
      for (const child of referencedBy(frame.type, frame.object)) if (!done.has(child)) stack.push({ oid: child, expanded: false });
      continue;
    }
    waiting.push({ oid: frame.oid, type: frame.type!, content: frame.object! });
    waitingBytes += frame.object!.byteLength;
    done.add(frame.oid);
    copied++;
    stack.pop();
    if (waitingBytes >= PACK_BYTES) await write();
  }
  await write();
  if (packs > 0) await consolidatePacksWhenMany(to);
  return copied;
}

/** Fast-forwards (or creates) `branch` of the repository at `target` to `oid`. Returns the head before. */
export async function pushLocal(source: string, target: string, oid: string, branch: string, signal?: AbortSignal): Promise<string | null> {
  const remote = GitRepository.at(target);
  if (!remote.exists()) throw new RemoteError('UPSTREAM_NOT_FOUND', `The repository ${target} does not exist.`);
  await copyMissingObjects(source, target, oid, signal);
  return remote.exclusive(async () => {
    const before = await remote.head(branch);
    if (before === oid) return before;
    if (before !== null && !(await isAncestor(target, before, oid))) {
      throw new RemoteError('PUSH_REJECTED', `${target} has commits this branch does not have (not a fast-forward); pull first, then push.`);
    }
    await remote.setHead(branch, oid, before);
    return before;
  });
}

/** Deletes `branch` of the repository at `target` while it is still at `expected`. */
export async function deleteLocalBranch(target: string, branch: string, expected: string): Promise<void> {
  const remote = GitRepository.at(target);
  await remote.exclusive(async () => {
    const head = await remote.head(branch);
    if (head === null) return;
    if (head !== expected) throw new RemoteError('PUSH_REJECTED', `Branch "${branch}" of ${target} has commits this service has not fetched; fetch first.`);
    await remote.deleteBranch(branch);
  });
}
