// A successful build's snapshot — the model files it compiled and the compiled model — is a file
// beside the database, written and read by worker threads: at 1,000 cubes the compiled model is
// ~17 MB of JSON, too much to parse, serialise or move through SQLite on the HTTP thread.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CompiledModel, ModelFile } from '../../../src-shared/model';

export interface SnapshotContent {
  files: ModelFile[];
  model: CompiledModel;
}

export const snapshotDir = (dataDir: string, deploymentId: number): string => join(dataDir, 'builds', String(deploymentId));

export const snapshotFile = (dataDir: string, deploymentId: number, buildId: string): string =>
  join(snapshotDir(dataDir, deploymentId), `${buildId}.json`);

/** Writes the snapshot whole or not at all (temporary file, then rename). */
export function writeSnapshot(file: string, content: SnapshotContent | string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, typeof content === 'string' ? content : JSON.stringify(content), { mode: 0o600 });
  renameSync(temp, file);
}

export function readSnapshot(file: string): SnapshotContent {
  return JSON.parse(readFileSync(file, 'utf8')) as SnapshotContent;
}

export function removeSnapshot(file: string): void {
  rmSync(file, { force: true });
}
