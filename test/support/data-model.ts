import { createHash } from 'node:crypto';
import type { ServiceOptions } from '../../src-main/service';
import { startSampleProjectService, useModelAsSampleProject } from './sample-project';
import type { TestService } from './service';

export const ORDERS_YML = `cubes:
  - name: orders
    sql_table: public.orders
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
    measures:
      - name: count
        type: count
`;

export const SALES_VIEW_YML = `views:
  - name: sales
    cubes:
      - join_path: orders
        includes:
          - status
          - count
`;

/** The sample project of the data-model tests: `model/**` plus a file outside `model/` that must not be copied. */
export const SAMPLE_PROJECT: Record<string, string> = {
  'model/cubes/orders.yml': ORDERS_YML,
  'model/views/sales.yml': SALES_VIEW_YML,
  'cube.js': 'module.exports = {};\n',
};

/** Makes SAMPLE_PROJECT the project first run loads (`DRYDOCK_SAMPLE_PROJECT`); returns its folder. */
export const useSampleProject = (): string => useModelAsSampleProject(SAMPLE_PROJECT);

/** A test service whose new deployments start with SAMPLE_PROJECT; its `stop` also removes the project folder. */
export const startWithSampleProject = (options: Partial<ServiceOptions> = {}) => startSampleProjectService(SAMPLE_PROJECT, options);

/** Creates a deployment through the API and returns its id. */
export async function createDeployment(svc: TestService, name = `dm-${Math.random().toString(36).slice(2, 8)}`): Promise<number> {
  const res = await svc.call('POST', '/build/api/v1/deployments/', {
    body: { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
  });
  if (res.status !== 201) throw new Error(`creating a deployment failed: ${res.status} ${res.text}`);
  return res.body.id as number;
}

/** `/build/api/v1/deployments/{id}` */
export const buildPath = (deploymentId: number) => `/build/api/v1/deployments/${deploymentId}`;

export const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');
