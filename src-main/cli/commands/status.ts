// `drydock status`: the deployment, the build and deploy state of a branch, and the jobs running now.
import { deploymentsRoutes } from '../../../src-shared/api/deployments';
import type { ConnectionOptions } from '../api/connection';
import { listJobs } from '../api/jobs';
import { withDeployment } from './common';

export default async function status(options: ConnectionOptions & { branch?: string }): Promise<number> {
  const { conn, out, progress, deployment } = await withDeployment(options);
  progress.update('Reading the build state and the running jobs…');
  const [build, jobs] = await Promise.all([
    conn.client.call(deploymentsRoutes.getDeploymentBuildStatus, {
      params: { deploymentId: deployment.id },
      query: options.branch ? { branch: options.branch } : {},
    }),
    listJobs(conn, deployment.id, { activeOnly: true, limit: 100 }),
  ]).finally(() => progress.stop());
  out.result({ deployment, build, jobs });
  out.line(`Deployment ${deployment.id} "${deployment.name}" (${conn.baseUrl}), deploy branch ${deployment.deployBranch}`);
  const commit = build.commit ? ` at ${build.commit.slice(0, 12)}` : '';
  out.line(`Build of ${build.branch}${commit}: ${build.buildStatus}; deploy: ${build.deployStatus}${build.detail ? ` (${build.detail})` : ''}`);
  if (jobs.length === 0) out.line('Running jobs: none');
  else {
    out.line('Running jobs:');
    out.table(
      jobs.map((j) => ({ ...j, progress: `${j.stage} ${j.percentComplete}%` })),
      [
        { key: 'id', title: 'ID' },
        { key: 'kind', title: 'KIND' },
        { key: 'status', title: 'STATUS' },
        { key: 'progress', title: 'PROGRESS' },
        { key: 'createdAt', title: 'STARTED' },
      ],
    );
  }
  return 0;
}
