/**
 * Rules shared by the workspace areas (folders, workbooks, reports, workspace, notifications,
 * embed): who may read, edit and manage an item, the content hash of an item's body, and item
 * counts per folder. It sits below those areas and imports none of them, so they never import
 * each other in a circle.
 */
export { canAccessDeployment, canEditDeployment, canManageItem, canManageWorkbook, canReadDeployment, canSeeWorkbook, deploymentExists, isAdmin } from './access';
export { canonicalJson, contentHash } from '../../platform/json/canonical';
export { countItemsInFolder } from './counts';
