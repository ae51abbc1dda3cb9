// The limits and error codes of data-model authoring.
import { ErrorCodes } from '../errors';

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_FILES_PER_WRITE = 500;
export const MAX_UPLOAD_FILES = 5000;
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Content a page of `GET …/data-model/files?content=true` carries: the page ends before the file that
 * would take it past this (a page holds at least one file, whatever its size).
 */
export const MAX_CONTENT_PAGE_BYTES = 4 * 1024 * 1024;
export const UPLOAD_TTL_HOURS = 24;
export const MAX_COMMIT_MESSAGE_LENGTH = 5000;

export const DataModelErrorCodes = {
  BRANCH_NOT_FOUND: 'BRANCH_NOT_FOUND',
  BRANCH_EXISTS: 'BRANCH_EXISTS',
  BRANCH_NAME_CONFLICT: 'BRANCH_NAME_CONFLICT',
  INVALID_BRANCH_NAME: 'INVALID_BRANCH_NAME',
  BRANCH_NOT_IN_DEV_MODE: 'BRANCH_NOT_IN_DEV_MODE',
  DEV_BRANCH_OF_ANOTHER_USER: 'DEV_BRANCH_OF_ANOTHER_USER',
  NOT_IN_DEV_MODE: 'NOT_IN_DEV_MODE',
  DEPLOY_BRANCH_PROTECTED: 'DEPLOY_BRANCH_PROTECTED',
  BRANCH_HAS_NO_PARENT: 'BRANCH_HAS_NO_PARENT',
  INVALID_PARENT_BRANCH: 'INVALID_PARENT_BRANCH',
  MERGE_INTO_ITSELF: 'MERGE_INTO_ITSELF',
  UNCOMMITTED_CHANGES: 'UNCOMMITTED_CHANGES',
  MERGE_CONFLICT: 'MERGE_CONFLICT',
  USER_REQUIRED: 'USER_REQUIRED',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  FILE_EXISTS: 'FILE_EXISTS',
  FILE_CHANGED: ErrorCodes.FILE_CHANGED,
  INVALID_IF_MATCH: ErrorCodes.INVALID_IF_MATCH,
  INVALID_FILE_PATH: 'INVALID_FILE_PATH',
  /** A path git reserves: `.git` and its NTFS/HFS+ synonyms (`git~1`, `.git.`, `.git::$INDEX_ALLOCATION`), `.gitmodules`… (issue 23). */
  PATH_RESERVED_BY_GIT: 'PATH_RESERVED_BY_GIT',
  /** A name Windows cannot hold: reserved device names (CON, AUX, COM1…), `<>:"|?*`, a trailing period or space, over 255 bytes. */
  PATH_NOT_PORTABLE: 'PATH_NOT_PORTABLE',
  /** A path that is no proper Unicode: a lone surrogate, U+FFFD. */
  PATH_INVALID_UNICODE: 'PATH_INVALID_UNICODE',
  /** A name that differs only in case or Unicode normalisation from another in the same folder (one file on macOS and Windows). */
  PATH_CASE_CONFLICT: 'PATH_CASE_CONFLICT',
  FILE_TYPE_NOT_ALLOWED: 'FILE_TYPE_NOT_ALLOWED',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FILE_NOT_TEXT: 'FILE_NOT_TEXT',
  DUPLICATE_PATH: 'DUPLICATE_PATH',
  PATH_CONFLICT: 'PATH_CONFLICT',
  REPOSITORY_BUSY: 'REPOSITORY_BUSY',
  /** An object the model repository needs is missing or damaged on disk (issue 23): 409, naming the objects. */
  REPOSITORY_DAMAGED: 'REPOSITORY_DAMAGED',
  UPLOAD_NOT_FOUND: 'UPLOAD_NOT_FOUND',
  UPLOAD_OF_ANOTHER_USER: 'UPLOAD_OF_ANOTHER_USER',
  UPLOAD_EXPIRED: 'UPLOAD_EXPIRED',
  UPLOAD_FINISHED: 'UPLOAD_FINISHED',
  UPLOAD_TOO_LARGE: 'UPLOAD_TOO_LARGE',
  UPLOAD_MANIFEST_CHANGED: 'UPLOAD_MANIFEST_CHANGED',
  UPLOAD_PATH_NOT_IN_MANIFEST: 'UPLOAD_PATH_NOT_IN_MANIFEST',
  UPLOAD_INCOMPLETE: 'UPLOAD_INCOMPLETE',
  UPLOAD_HASH_MISMATCH: 'UPLOAD_HASH_MISMATCH',
  CHUNK_OUT_OF_RANGE: 'CHUNK_OUT_OF_RANGE',
  CHUNK_TOO_LARGE: 'CHUNK_TOO_LARGE',
  INVALID_CHUNK_DATA: 'INVALID_CHUNK_DATA',
} as const;
