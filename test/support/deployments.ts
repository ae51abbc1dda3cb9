import type { TestService } from './service';

let counter = 0;

/** Creates a deployment through `POST /build/api/v1/deployments/` (as the admin API key) and returns its id. */
export async function createDeployment(svc: TestService, name = `deployment-${++counter}`): Promise<number> {
  const res = await svc.call('POST', '/build/api/v1/deployments/', {
    body: { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
  });
  if (res.status !== 201 || typeof res.body?.id !== 'number') {
    throw new Error(`Creating deployment "${name}" failed: ${res.status} ${res.text}`);
  }
  return res.body.id as number;
}
