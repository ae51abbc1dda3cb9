import { core } from './001-core';
import { deployments } from './002-deployments';
import { dataModel } from './003-data-model';
import { jobs } from './004-jobs';
import { warehouseSync } from './005-warehouse-sync';
import { lakehouse } from './006-lakehouse';
import { workbooks } from './007-workbooks';
import { admin } from './008-admin';
import { automation } from './009-automation';
import { profiles } from './010-profiles';
import { remoteTransfers } from './011-remote-transfers';
import { listIndexes } from './012-list-indexes';
import { authEpoch } from './013-auth-epoch';
import { gitUpstream } from './014-git-upstream';
import { oauthFlow } from './015-oauth-flow';
import { uploadChunkFiles } from './016-upload-chunk-files';
import { devTargets } from './017-dev-targets';
import { lakehouseDevTargets } from './018-lakehouse-dev-targets';
import { reviewsAndModelTests } from './019-reviews-and-model-tests';
import type { Migration } from './types';

export type { Migration } from './types';

/** Every schema step in order. Append new steps; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  core,
  deployments,
  dataModel,
  jobs,
  warehouseSync,
  lakehouse,
  workbooks,
  admin,
  automation,
  profiles,
  remoteTransfers,
  listIndexes,
  authEpoch,
  gitUpstream,
  oauthFlow,
  uploadChunkFiles,
  devTargets,
  lakehouseDevTargets,
  reviewsAndModelTests,
];
