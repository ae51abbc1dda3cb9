// Model test routes (issue 26), the test run job, the tests a build of the deploy branch runs, and
// the test diagnostics validation shows. Running tests runs queries on the model's data sources
// without access policies (as the model itself): SchemaUpdate, like writing the tests.
import * as contract from '../../../src-shared/api/model-tests';
import { DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';
import type { Api, RouteOptions } from '../../http/route';
import { getJobRunner } from '../../platform/jobs';
import { onBuildSucceeded } from '../builds';
import { addValidationCheck, getDeployBranch } from '../data-model';
import { cancelTestRun, enqueueTestRun, getTestRun, listTestRuns, runTestRun, startTestRun, TEST_RUN_KIND, type TestRunInputs, type TestRunResult } from './runs';
import { modelTestDiagnostics } from './validation';

const TESTS: RouteOptions = { access: ['schemaUpdate'], credentials: DEPLOYMENT_WRITE_CREDENTIALS };

export function registerModelTestRoutes(api: Api): void {
  const { ctx, route } = api;
  const runner = getJobRunner(ctx);
  if (!runner.isRegistered(TEST_RUN_KIND)) {
    runner.register<TestRunInputs, TestRunResult>(TEST_RUN_KIND, (job, jobCtx) => runTestRun(ctx, job, jobCtx), { concurrency: 2, maxAttempts: 2 });
  }
  // A build of the deploy branch runs the model tests; their outcome is noted on the build.
  onBuildSucceeded(ctx, (build) => {
    void (async () => {
      if (build.branch !== (await getDeployBranch(ctx, build.deploymentId))) return;
      enqueueTestRun(ctx, { deploymentId: build.deploymentId, branch: build.branch, commit: build.commit, edits: [], trigger: 'build', buildId: build.id }, null);
    })().catch((error: unknown) => ctx.log.error('could not start the model tests of a build', { buildId: build.id, error: String(error) }));
  });
  addValidationCheck(ctx, (input) => modelTestDiagnostics(ctx, input));

  route(contract.startModelTestRun, TESTS, ({ params, body, principal }) => startTestRun(ctx, params.deploymentId, body, principal));
  route(contract.listModelTestRuns, TESTS, ({ params, query }) =>
    listTestRuns(ctx, params.deploymentId, { branchName: query.branchName, commit: query.commit, trigger: query.trigger }, { first: query.first, after: query.after }),
  );
  route(contract.getModelTestRun, TESTS, ({ params }) => getTestRun(ctx, params.deploymentId, params.testRunId));
  route(contract.cancelModelTestRun, TESTS, ({ params }) => cancelTestRun(ctx, params.deploymentId, params.testRunId));
}
