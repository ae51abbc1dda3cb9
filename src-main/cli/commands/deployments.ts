// `drydock deployments`: the deployments of the service.
import type { ConnectionOptions } from '../api/connection';
import { listDeployments } from '../api/resolve';
import { setup } from './common';

export default async function deployments(options: ConnectionOptions): Promise<number> {
  const { conn, out } = await setup(options);
  const all = await listDeployments(conn);
  out.result(all);
  if (all.length === 0) out.line('No deployments.');
  else {
    out.table(
      all.map((d) => ({ id: d.id, name: d.name, branch: d.deployBranch, region: `${d.cloudProvider}/${d.region}`, version: d.currentVersion })),
      [
        { key: 'id', title: 'ID' },
        { key: 'name', title: 'NAME' },
        { key: 'branch', title: 'DEPLOY BRANCH' },
        { key: 'region', title: 'REGION' },
        { key: 'version', title: 'VERSION' },
      ],
    );
  }
  return 0;
}
