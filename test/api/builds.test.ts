import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBuild, getLatestSuccessfulBuild, listBuilds, loadBuildSnapshot } from '../../src-main/features/builds';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import type { TestService } from '../support/service';
import { D, deployFiles, eventually, ORDERS_VIEW, startSampleProjectService, waitForBuildOf } from '../support/lakehouse';

let svc: TestService;

beforeAll(async () => {
  svc = await startSampleProjectService();
});
afterAll(() => svc.stop());

const viewFile = (name: string) => ({ [`model/views/${name}.yml`]: ORDERS_VIEW.replace('name: orders_view', `name: ${name}`) });
const BROKEN = { 'model/views/broken.yml': 'views:\n  - name: broken\n    cubes:\n      - join_path: no_such_cube\n        includes: "*"\n' };

describe('builds', () => {
  it('each new commit on the deploy branch starts a build job that compiles the model at that commit and records commit and compiled model', async () => {
    const id = await createDeployment(svc);
    const commit = await deployFiles(svc, id, viewFile('fresh_view'));
    const state = await waitForBuildOf(svc, id, commit);
    expect(state).toMatchObject({ branch: 'main', isDeployBranch: true, buildStatus: 'succeeded', deployStatus: 'deployed', commit });
    const build = getLatestSuccessfulBuild(svc.ctx, id)!;
    expect(build).toMatchObject({ id: state.buildJobId, commit, status: 'succeeded', branch: 'main' });
    expect(getJobRunner(svc.ctx).get(build.id)?.kind).toBe('build');
    const snapshot = loadBuildSnapshot(svc.ctx, build.id)!;
    expect(Object.keys(snapshot.model.views)).toContain('fresh_view');
    expect(snapshot.files.map((f) => f.path)).toContain('model/views/fresh_view.yml');
  });

  it('builds each commit as it was, even when a newer commit lands before the build ran', async () => {
    const id = await createDeployment(svc);
    const first = await deployFiles(svc, id, viewFile('first_view'));
    const second = await deployFiles(svc, id, { 'model/views/first_view.yml': null, ...viewFile('second_view') });
    await waitForBuildOf(svc, id, second);
    const builds = await eventually(() => {
      const all = listBuilds(svc.ctx, id, 'main');
      return all.every((b) => b.status === 'succeeded') && all.length >= 2 ? all : undefined;
    }, 'both builds');
    const ofFirst = builds.find((b) => b.commit === first)!;
    const ofSecond = builds.find((b) => b.commit === second)!;
    expect(Object.keys(loadBuildSnapshot(svc.ctx, ofFirst.id)!.model.views)).toContain('first_view');
    expect(Object.keys(loadBuildSnapshot(svc.ctx, ofSecond.id)!.model.views)).not.toContain('first_view');
    expect(getLatestSuccessfulBuild(svc.ctx, id)!.commit).toBe(second);
  });

  it('a failed build records its diagnostics and build-status reports it; the previous successful build stays deployed', async () => {
    const id = await createDeployment(svc);
    const good = await deployFiles(svc, id, viewFile('good_view'));
    await waitForBuildOf(svc, id, good);
    const bad = await deployFiles(svc, id, BROKEN);
    const state = await waitForBuildOf(svc, id, bad);
    expect(state).toMatchObject({ buildStatus: 'failed', deployStatus: 'deployed', commit: bad });
    expect(state.detail).toContain('compile error');
    const failed = getBuild(svc.ctx, state.buildJobId)!;
    expect(failed.status).toBe('failed');
    expect(failed.diagnostics.some((d) => d.severity === 'error' && d.file === 'model/views/broken.yml')).toBe(true);
    expect(loadBuildSnapshot(svc.ctx, failed.id)).toBeNull();
    expect(getJobRunner(svc.ctx).get(failed.id)?.error?.code).toBe('BUILD_COMPILE_FAILED');
    expect(getLatestSuccessfulBuild(svc.ctx, id)!.commit).toBe(good);
    const logs = await svc.call('GET', `${D(id)}/logs`);
    expect(logs.body.items.some((l: { message: string }) => l.message.includes('build failed'))).toBe(true);
  });

  it('commits on other branches start no build', async () => {
    const id = await createDeployment(svc);
    const branch = await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'feature' } });
    expect(branch.status).toBe(201);
    await deployFiles(svc, id, viewFile('feature_view'), undefined, 'feature');
    const onMain = await deployFiles(svc, id, viewFile('main_view'));
    await waitForBuildOf(svc, id, onMain);
    expect(listBuilds(svc.ctx, id, 'feature')).toEqual([]);
    expect(listBuilds(svc.ctx, id, 'main').map((b) => b.commit)).toEqual([onMain]);
  });
});
