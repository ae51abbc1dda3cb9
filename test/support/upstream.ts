import { createHash } from 'node:crypto';
import type { TestService } from './service';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Commits files to a branch (default the deploy branch) through the upload API, the way
 * `drydock push` does; returns the finish answer (`commit`, `changes`, and `push` when the branch
 * tracks an upstream).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function upload(svc: TestService, id: number, files: Record<string, string>, branchName?: string): Promise<any> {
  const base = `/build/api/v1/deployments/${id}/data-model/upload`;
  const entries = Object.entries(files);
  const start = await svc.call('POST', `${base}/start`, {
    body: { files: entries.map(([path, content]) => ({ path, size: Buffer.byteLength(content), sha256: sha256(content) })), ...(branchName ? { branchName } : {}) },
  });
  if (start.status !== 200) throw new Error(`upload start failed: ${start.status} ${start.text}`);
  for (const [path, content] of entries) {
    const sent = await svc.call('POST', `${base}/file`, { body: { uploadId: start.body.uploadId, path, offset: 0, data: Buffer.from(content).toString('base64') } });
    if (sent.status !== 200) throw new Error(`upload of ${path} failed: ${sent.status} ${sent.text}`);
  }
  const finish = await svc.call('POST', `${base}/finish`, { body: { uploadId: start.body.uploadId } });
  if (finish.status !== 200) throw new Error(`upload finish failed: ${finish.status} ${finish.text}`);
  return finish.body;
}
