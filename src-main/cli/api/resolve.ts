// Finding what a command names: the deployment (id, name, or the only one), a workbook (id or slug),
// and every page of a list.
import { deploymentsRoutes, type Deployment } from '../../../src-shared/api/deployments';
import type { PageInfo } from '../../../src-shared/api/contract';
import { CliError } from '../output';
import type { Connection } from './connection';

/** Every item of a paginated list, following `pageInfo.endCursor` (at most `limit` items). */
export async function listAll<T>(fetchPage: (after: string | undefined) => Promise<{ items: T[]; pageInfo: PageInfo }>, limit = 10_000): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after);
    items.push(...page.items);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || items.length >= limit) return items.slice(0, limit);
    after = page.pageInfo.endCursor;
  }
}

export async function listDeployments(conn: Connection): Promise<Deployment[]> {
  return listAll((after) => conn.client.call(deploymentsRoutes.listDeployments, { query: { first: 100, ...(after ? { after } : {}) } }));
}

/** The deployment a command works on: `ref` (id or name), else the only one. */
export async function resolveDeployment(conn: Connection, ref: string | undefined): Promise<Deployment> {
  if (ref !== undefined && /^\d+$/.test(ref)) {
    return conn.client.call(deploymentsRoutes.getDeployment, { params: { deploymentId: Number(ref) } });
  }
  const all = await listDeployments(conn);
  if (ref !== undefined) {
    const exact = all.filter((d) => d.name === ref);
    const matches = exact.length ? exact : all.filter((d) => d.name.toLowerCase() === ref.toLowerCase());
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new CliError('DEPLOYMENT_AMBIGUOUS', `${matches.length} deployments are named "${ref}" (ids ${matches.map((d) => d.id).join(', ')}); pass the id.`);
    }
    throw new CliError('DEPLOYMENT_NOT_FOUND', `No deployment is named "${ref}"; \`drydock deployments\` lists them.`);
  }
  if (all.length === 1) return all[0]!;
  if (all.length === 0) throw new CliError('NO_DEPLOYMENT', 'The service has no deployment yet.');
  const names = all.map((d) => `${d.id} (${d.name})`).join(', ');
  throw new CliError('DEPLOYMENT_REQUIRED', `The service has ${all.length} deployments; pick one with -d ID or NAME: ${names}.`);
}
