import { LOG_CONTAINERS, type LogContainer } from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import { paginateArray, type PageRequest } from '../../http/pagination';
import { getBuildState, getCurrentVersion, lastEnvVarChange } from '../deployments';
import { allEnvironments } from './environments';

type Phase = 'Pending' | 'Running' | 'Failed';

interface Container {
  name: LogContainer;
  state: 'waiting' | 'running' | 'terminated';
  reason: string | null;
  ready: boolean;
  restartCount: number;
}

export interface DeploymentPod {
  name: string;
  environmentId: number;
  environmentName: string;
  branch: string;
  phase: Phase;
  ready: boolean;
  version: string;
  startedAt: string;
  containers: Container[];
}

function containersFor(phase: Phase): Container[] {
  return LOG_CONTAINERS.map((name): Container => {
    if (name === 'INIT') {
      // The init container prepares the model files and exits before the others start.
      return phase === 'Pending'
        ? { name, state: 'running', reason: null, ready: false, restartCount: 0 }
        : { name, state: 'terminated', reason: phase === 'Failed' ? 'Error' : 'Completed', ready: phase !== 'Failed', restartCount: 0 };
    }
    if (phase === 'Running') return { name, state: 'running', reason: null, ready: true, restartCount: 0 };
    return { name, state: 'waiting', reason: phase === 'Failed' ? 'InitFailed' : 'PodInitializing', ready: false, restartCount: 0 };
  });
}

const latest = (...times: (string | null)[]): string => times.filter((t): t is string => t !== null).sort().at(-1) as string;

/**
 * Pods derived from the deployment's state: one per environment whose branch is deployed,
 * deploying or failed to deploy (a branch that was never deployed runs nothing). A pod restarts
 * when the env vars change, so it started at the latest of its environment's creation, its last
 * deploy and the last env var change.
 */
export function listPods(ctx: ServiceContext, deploymentId: number, page: PageRequest) {
  const version = getCurrentVersion(ctx, deploymentId);
  const envChange = lastEnvVarChange(ctx, deploymentId);
  const pods: DeploymentPod[] = [];
  for (const environment of allEnvironments(ctx, deploymentId)) {
    const state = getBuildState(ctx, deploymentId, environment.branchName);
    if (state.deployStatus === 'not_deployed') continue;
    const phase: Phase = state.deployStatus === 'deployed' ? 'Running' : state.deployStatus === 'failed' ? 'Failed' : 'Pending';
    pods.push({
      name: `deployment-${deploymentId}-${environment.name}-0`,
      environmentId: environment.id,
      environmentName: environment.name,
      branch: environment.branchName,
      phase,
      ready: phase === 'Running',
      version,
      startedAt: latest(environment.createdAt, state.updatedAt, envChange),
      containers: containersFor(phase),
    });
  }
  return paginateArray(pods, page, (pod) => pod.name);
}
