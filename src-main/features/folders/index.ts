/** What other areas may use of the folders area. */
export { assertCanManageFolder, deleteFolder, folderChain, folderPath, moveFolder, requireFolder } from './folders';
