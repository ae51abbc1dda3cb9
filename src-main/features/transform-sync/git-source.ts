import { TransformSyncErrorCodes as Codes } from '../../../src-shared/api/transform-sync';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { JobFailure } from '../../platform/jobs';
import { diffCommits, getBranchHead } from '../data-model';
import { readRepositoryFile } from '../git-host';

const COMMIT_ID = /^[0-9a-f]{40}$/;

/** The commit a ref names in the deployment repository: a commit id as is, else a branch's head. */
async function resolveRef(ctx: ServiceContext, deploymentId: number, ref: string): Promise<string> {
  if (COMMIT_ID.test(ref)) return ref;
  try {
    return await getBranchHead(ctx, deploymentId, ref);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new JobFailure(Codes.REF_NOT_FOUND, `"${ref}" is neither a branch nor a commit id of the deployment repository.`, { status: 404 });
    }
    throw error;
  }
}

/**
 * Reads and parses the dbt manifest at `path` as of `ref` in the deployment's repository (a dbt
 * project committed with its `target/manifest.json`).
 */
export async function readManifestFromGit(ctx: ServiceContext, deploymentId: number, ref: string, path: string): Promise<unknown> {
  const commit = await resolveRef(ctx, deploymentId, ref);
  let files;
  try {
    files = await diffCommits(ctx, deploymentId, null, commit);
  } catch (error) {
    throw new JobFailure(Codes.REF_NOT_FOUND, `Commit ${commit} is not in the deployment repository.`, { status: 404, cause: error });
  }
  const file = files.find((f) => f.path === path);
  if (!file || typeof file.after !== 'string') {
    throw new JobFailure(Codes.MANIFEST_NOT_FOUND, `There is no ${path} at ${ref}${ref === commit ? '' : ` (commit ${commit.slice(0, 7)})`}: commit the dbt project's manifest (run \`dbt parse\`), or send it with source "manifest".`, {
      status: 404,
    });
  }
  try {
    return JSON.parse(file.after) as unknown;
  } catch (error) {
    throw new JobFailure(Codes.INVALID_MANIFEST, `${path} at ${ref} is not valid JSON: ${(error as Error).message}`, { status: 422 });
  }
}

/** Paths a commit changed relative to its parent commit (empty when there is no parent). */
export async function pathsChangedBy(ctx: ServiceContext, deploymentId: number, parent: string | null, commit: string): Promise<string[]> {
  return (await diffCommits(ctx, deploymentId, parent, commit)).map((change) => change.path);
}

/** Reads and parses the manifest at `path` (inside the project folder) as of `ref` of a host repository. */
export async function readManifestFromRepository(
  ctx: ServiceContext,
  repository: { owner: string; repo: string; path: string },
  ref: string,
  path: string,
): Promise<unknown> {
  const fullName = `${repository.owner}/${repository.repo}`;
  const filePath = repository.path ? `${repository.path}/${path}` : path;
  let file;
  try {
    file = await readRepositoryFile(ctx, repository.owner, repository.repo, ref, filePath);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    throw new JobFailure(e.code ?? 'GITHOST_ERROR', `Reading ${filePath} at ${ref} of ${fullName} failed: ${e.message ?? String(error)}`, { status: 502, cause: error });
  }
  if (file === null) throw new JobFailure(Codes.REF_NOT_FOUND, `"${ref}" names no branch or commit of ${fullName}.`, { status: 404 });
  if (file.content === null) {
    throw new JobFailure(Codes.MANIFEST_NOT_FOUND, `There is no ${filePath} at ${ref} of ${fullName} (commit ${file.commit.slice(0, 7)}): commit the dbt project's manifest (run \`dbt parse\`).`, {
      status: 404,
    });
  }
  try {
    return JSON.parse(new TextDecoder().decode(file.content)) as unknown;
  } catch (error) {
    throw new JobFailure(Codes.INVALID_MANIFEST, `${filePath} at ${ref} of ${fullName} is not valid JSON: ${(error as Error).message}`, { status: 422 });
  }
}
