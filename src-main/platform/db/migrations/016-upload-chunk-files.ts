import type { Migration } from './types';

/**
 * Upload chunks leave the database: a chunk received from now on is a file in the private data
 * directory (`uploads/<deploymentId>/<uploadId>/<part_file>`), written and read by worker threads,
 * so the HTTP thread never copies megabytes in and out of SQLite. The row keeps what the status of
 * an upload needs (offset and length) and names the file. Chunks received before this step keep
 * their bytes in `data` and stay readable, so an open upload resumes and finishes as before.
 */
export const uploadChunkFiles: Migration = {
  version: 16,
  name: 'upload-chunk-files',
  up: `
    CREATE TABLE model_upload_chunks_v2 (
      upload_id TEXT NOT NULL REFERENCES model_uploads(id) ON DELETE CASCADE,
      file_index INTEGER NOT NULL,
      byte_offset INTEGER NOT NULL,
      byte_length INTEGER NOT NULL CHECK (byte_length >= 0),
      -- The chunk's bytes, in a file of the upload's folder (chunks received since this step).
      part_file TEXT,
      -- The chunk's bytes, for chunks received before this step.
      data BLOB,
      CHECK ((part_file IS NULL) <> (data IS NULL)),
      PRIMARY KEY (upload_id, file_index, byte_offset)
    );
    INSERT INTO model_upload_chunks_v2 (upload_id, file_index, byte_offset, byte_length, part_file, data)
      SELECT upload_id, file_index, byte_offset, length(data), NULL, data FROM model_upload_chunks;
    DROP TABLE model_upload_chunks;
    ALTER TABLE model_upload_chunks_v2 RENAME TO model_upload_chunks;
  `,
};
