import fs from 'node:fs';
import { gitFs, isIntactLooseObject, looseObjectFile } from './durable-fs';
import git from 'isomorphic-git';
import { isAncestor } from './divergence';
import { RemoteError } from './remote-error';
import { GitRepository } from './repository';

/**
 * The transport to a bare repository on this disk (the local repository host): objects are copied
 * between the two object stores, refs moved with the same compare-and-set as any local write.
 */

type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

async function has(gitdir: string, oid: string): Promise<boolean> {
  // A loose object counts only when whole: a damaged one is copied again (and so replaced).
  const loose = looseObjectFile(gitdir, oid);
  if (fs.existsSync(loose)) return isIntactLooseObject(loose, oid);
  try {
    await git.readObject({ fs: gitFs, gitdir, oid, format: 'deflated' });
    return true;
  } catch {
    return false;
  }
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
 * (and "present" keeps meaning "present with everything below it").
 */
export async function copyMissingObjects(from: string, to: string, head: string): Promise<number> {
  let copied = 0;
  const done = new Set<string>();
  const stack: { oid: string; expanded: boolean; type?: ObjectType; object?: Uint8Array }[] = [{ oid: head, expanded: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (done.has(frame.oid)) {
      stack.pop();
      continue;
    }
    if (!frame.expanded) {
      if (await has(to, frame.oid)) {
        done.add(frame.oid);
        stack.pop();
        continue;
      }
      const read = await git.readObject({ fs: gitFs, gitdir: from, oid: frame.oid, format: 'content' });
      frame.type = read.type as ObjectType;
      frame.object = read.object as Uint8Array;
      frame.expanded = true;
      for (const child of referencedBy(frame.type, frame.object)) if (!done.has(child)) stack.push({ oid: child, expanded: false });
      continue;
    }
    await git.writeObject({ fs: gitFs, gitdir: to, type: frame.type!, object: frame.object!, format: 'content', oid: frame.oid });
    done.add(frame.oid);
    copied++;
    stack.pop();
  }
  return copied;
}

/** Fast-forwards (or creates) `branch` of the repository at `target` to `oid`. Returns the head before. */
export async function pushLocal(source: string, target: string, oid: string, branch: string): Promise<string | null> {
  const remote = GitRepository.at(target);
  if (!remote.exists()) throw new RemoteError('UPSTREAM_NOT_FOUND', `The repository ${target} does not exist.`);
  await copyMissingObjects(source, target, oid);
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
