// The first run's sample (issue 24): the tour walks edit → validate → push/publish → promote, so the
// sample brings everything that path needs — a deployment with the sample model, a workbook whose
// dashboard queries the sample views (KPIs, a bar and a line chart), and a second deployment,
// Staging, to promote that workbook into. Every new deployment starts with the sample model, so
// Staging has the same views and the promoted dashboard works there too.
import { createDeployment, type Deployment } from '../../../../src-shared/api/deployments';
import { publishWorkbookDashboard, upsertWorkbookBySlug, type DashboardConfigInput } from '../../../../src-shared/api/workbooks';
import sample from '../../../../resources/sample-project/workbooks/sales-overview.json';
import { api } from '../../app/session';

/** The names the first run gives the two deployments. */
export const SAMPLE_DEPLOYMENT_NAME = 'Sample project';
export const STAGING_DEPLOYMENT_NAME = 'Staging';

const newDeployment = (name: string): Promise<Deployment> =>
  api.call(createDeployment, { body: { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } } });

export interface SampleProject {
  deploymentId: number;
  /** What could not be set up besides the sample deployment (it opens anyway). */
  problems: string[];
}

/**
 * Creates the sample deployment, its published "Sales overview" workbook and the Staging deployment.
 * Only the first step must succeed: the workbook and Staging are extras of the tour, and a failure
 * there is reported, not in the way (the workbook is written by slug, so doing it again is harmless).
 */
export async function openSampleProject(): Promise<SampleProject> {
  const created = await newDeployment(SAMPLE_DEPLOYMENT_NAME);
  const problems: string[] = [];
  try {
    const workbook = await api.call(upsertWorkbookBySlug, {
      params: { deploymentId: created.id, slug: sample.slug },
      body: { name: sample.name, description: sample.description, dashboardDraft: sample.dashboard as DashboardConfigInput },
    });
    await api.call(publishWorkbookDashboard, { params: { deploymentId: created.id, workbookId: workbook.id } });
  } catch (error) {
    problems.push(`The sample workbook “${sample.name}” could not be created: ${(error as Error).message}`);
  }
  try {
    await newDeployment(STAGING_DEPLOYMENT_NAME);
  } catch (error) {
    problems.push(`The ${STAGING_DEPLOYMENT_NAME} deployment to promote into could not be created: ${(error as Error).message}`);
  }
  return { deploymentId: created.id, problems };
}
