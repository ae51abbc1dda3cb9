import type { ServiceContext } from '../../context';
import { getBranchHead, getDeployBranch } from '../data-model';

/** The deploy branch and its head commit (the repository is created on first use). */
export async function deployBranchHead(ctx: ServiceContext, deploymentId: number): Promise<{ branch: string; commit: string | null }> {
  const branch = await getDeployBranch(ctx, deploymentId);
  return { branch, commit: await getBranchHead(ctx, deploymentId, branch).catch(() => null) };
}
