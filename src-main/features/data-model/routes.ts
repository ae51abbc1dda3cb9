import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import * as api from '../../../src-shared/api/data-model';
import { REPLY_SENT, type Api, type ReplySent } from '../../http/route';
import {
  assertBranchName,
  createSharedBranch,
  defaultBranch,
  listBranchStates,
  setStagingEnvironment,
  startDevMode,
  stopDevMode,
} from './branches';
import { fileHashesJson, fileListWithContent, listOrReadFiles } from './files';
import { forgetBranchModels } from './validation';
import { validateWithChecks } from './validation-checks';
import { commitWorkingEdits, mergeBranchInto, pullFromParent } from './operations';
import { openRepository, removeDeploymentRepository } from './repository';
import { checkAllRepositories } from './repo-health';
import { onDeploymentDeleted } from '../deployments';
import { finishUpload, receiveChunk, startUpload, uploadsDir } from './uploads';
import { decodedBase64Of } from '../../platform/json/decoded-fields';
import { setUpAutoPush } from './upstream/auto-push';
import { deleteBranchAndUpstream } from './upstream/push';
import { deleteFile, renameFile, writeFiles } from './working';
import { etagOf, parseIfMatch } from './preconditions';
import { paginateArray } from '../../http/pagination';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';
import { bufferView } from '../../platform/files/buffer-view';

const READ = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
const EDIT = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };

/** The branch a file edit targets: `branchName`, else the caller's dev-mode branch, else the deploy branch (which refuses edits). */
async function editBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, requested?: string): Promise<string> {
  if (requested !== undefined) assertBranchName(requested, '/querystring/branchName');
  const { deployBranch } = await openRepository(ctx, deploymentId);
  return defaultBranch(ctx, deploymentId, principal, deployBranch, requested);
}

export function registerDataModelRoutes({ route, ctx }: Api): void {
  // The repository and the chunks of unfinished uploads live outside SQLite: remove them with their deployment.
  onDeploymentDeleted(ctx, async (deploymentId) => {
    await forgetBranchModels(ctx, deploymentId);
    await removeDeploymentRepository(ctx, deploymentId);
    await rm(uploadsDir(ctx, deploymentId), { recursive: true, force: true });
  });
  // New heads of branches that track the team's repository are pushed, whoever made them.
  setUpAutoPush(ctx);
  // Repositories a crashed run left open are checked in the background once the service serves
  // (a request that opens one first waits for its check; issue 23).
  ((ctx.services.starters ??= []) as (() => void)[]).push(() => {
    void checkAllRepositories(ctx).catch((error: unknown) => ctx.log.error('checking the model repositories failed', { error: String(error) }));
  });

  route(api.getDataModelFiles, READ, async ({ params, query, principal, reply, sealCursor }): Promise<api.FileContent | api.FileList | ReplySent> => {
    if (query.content === true && query.path === undefined) {
      // A page with the files' text comes as JSON bytes, made where the files were read (issue 28).
      const { chunks, release } = await fileListWithContent(ctx, params.deploymentId, principal, query, sealCursor);
      const length = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
      reply.raw.once('finish', release);
      await reply.code(200).type('application/json; charset=utf-8').header('content-length', length).send(Readable.from(chunks));
      return REPLY_SENT;
    }
    const result = await listOrReadFiles(ctx, params.deploymentId, principal, query);
    if ('sha256' in result) void reply.header('etag', etagOf(result.sha256));
    return result;
  });
  route(api.writeDataModelFiles, EDIT, async ({ params, query, body, principal, request }) => {
    const ifMatch = parseIfMatch(request.headers['if-match']);
    return writeFiles(ctx, params.deploymentId, principal, await editBranch(ctx, params.deploymentId, principal, query.branchName), body.files, ifMatch);
  });
  route(api.deleteDataModelFile, EDIT, async ({ params, query, principal, request }) => {
    const ifMatch = parseIfMatch(request.headers['if-match']);
    return deleteFile(ctx, params.deploymentId, principal, await editBranch(ctx, params.deploymentId, principal, query.branchName), query.path, ifMatch);
  });
  route(api.renameDataModelFile, EDIT, async ({ params, query, body, principal, request }) => {
    const ifMatch = parseIfMatch(request.headers['if-match']);
    const branch = await editBranch(ctx, params.deploymentId, principal, query.branchName);
    return renameFile(ctx, params.deploymentId, principal, branch, body.path, body.newPath, ifMatch);
  });
  // The answer comes serialised from the model shard: its bytes are sent as they are (issue 28).
  route(api.validateDataModel, READ, async ({ params, query, principal, reply }): Promise<ReplySent> => {
    const { body } = await validateWithChecks(ctx, params.deploymentId, principal, query.branchName);
    await reply.code(200).type('application/json; charset=utf-8').send(bufferView(body));
    return REPLY_SENT;
  });

  route(api.startDataModelUpload, EDIT, ({ params, body, principal }) => startUpload(ctx, params.deploymentId, principal, body));
  // A chunk's base64 (megabytes) is decoded on a compute thread with the body and never reaches this thread.
  route(api.uploadDataModelFileChunk, { ...EDIT, decodeBase64Field: 'data' }, ({ params, body, principal }) =>
    receiveChunk(ctx, params.deploymentId, principal, { ...body, data: decodedBase64Of(body) ?? body.data }),
  );
  route(api.finishDataModelUpload, EDIT, ({ params, body, principal }) => finishUpload(ctx, params.deploymentId, principal, body.uploadId));
  route(api.getDataModelFileHashes, READ, async ({ params, query, principal, reply }): Promise<ReplySent> => {
    await reply.code(200).type('application/json; charset=utf-8').send(await fileHashesJson(ctx, params.deploymentId, principal, query.branchName));
    return REPLY_SENT;
  });

  route(api.startDevMode, EDIT, ({ params, query, principal }) => startDevMode(ctx, params.deploymentId, principal, query.branchName));
  route(api.stopDevMode, EDIT, ({ params, principal }) => stopDevMode(ctx, params.deploymentId, principal));

  route(api.listBranches, READ, async ({ params, query }) =>
    paginateArray(await listBranchStates(ctx, params.deploymentId), query, (b) => b.branchName),
  );
  route(api.createBranch, EDIT, ({ params, body, principal }) =>
    createSharedBranch(ctx, params.deploymentId, principal, body.branchName, body.parentBranch),
  );
  route(api.deleteBranch, EDIT, async ({ params, query, principal }) => {
    const deleted = await deleteBranchAndUpstream(ctx, params.deploymentId, principal, query.branchName, query.removeOnUpstream === true);
    await forgetBranchModels(ctx, params.deploymentId, query.branchName);
    return deleted;
  });
  route(api.setBranchStagingEnvironment, EDIT, ({ params, body, principal }) =>
    setStagingEnvironment(ctx, params.deploymentId, principal, body.branchName, body.isStagingEnvironmentEnabled),
  );

  route(api.commitBranch, EDIT, ({ params, body, principal }) => commitWorkingEdits(ctx, params.deploymentId, principal, body ?? {}));
  route(api.pullBranch, EDIT, ({ params, body, principal }) => pullFromParent(ctx, params.deploymentId, principal, body ?? {}));
  route(api.mergeBranch, EDIT, ({ params, body, principal }) => mergeBranchInto(ctx, params.deploymentId, principal, body ?? {}, 'parent'));
  route(api.mergeBranchToDefault, EDIT, ({ params, body, principal }) =>
    mergeBranchInto(ctx, params.deploymentId, principal, body ?? {}, 'deploy'),
  );
}
