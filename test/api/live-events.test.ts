// Live events (issue 14 item 3): one authenticated stream of what changes — jobs, file edits, branch
// moves, builds, writes — read here over real HTTP as server-sent events, confined per credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, createDeployment, ORDERS_YML, sha256, startWithSampleProject } from '../support/data-model';
import { openEventStream, type EventStream } from '../support/events';
import { ADMIN_KEY, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let developer: TestUser;
let home: number;
let other: number;
const streams: EventStream[] = [];
const ORDERS = 'model/cubes/orders.yml';

beforeAll(async () => {
  process.env.DRYDOCK_EVENTS_HEARTBEAT_MS = '200';
  svc = await startWithSampleProject();
  developer = createUser(svc, 'developer');
  home = await createDeployment(svc);
  other = await createDeployment(svc);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await svc.stop();
  delete process.env.DRYDOCK_EVENTS_HEARTBEAT_MS;
});

const open = async (auth: string, options: Parameters<typeof openEventStream>[2] = {}) => {
  const stream = await openEventStream(svc.url, auth, options);
  streams.push(stream);
  return stream;
};
const devBranch = async (id: number) => {
  const res = await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
  expect(res.status).toBe(200);
  return res.body.branch.branchName as string;
};
const save = (id: number, branch: string, content: string) =>
  svc.call('PUT', `${buildPath(id)}/data-model/files?branchName=${branch}`, { auth: developer.auth, body: { files: [{ path: ORDERS, content }] } });

describe('GET /api/v1/events', { timeout: 60_000 }, () => {
  it('streams a saved file with its new version, the commit as a branch move, and the build of a merge to the deploy branch', { timeout: 180_000 }, async () => {
    const stream = await open(developer.auth);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const branch = await devBranch(home);
    const content = ORDERS_YML.replace('cubes:', 'cubes: # live\n');
    expect((await save(home, branch, content)).status).toBe(200);
    const files = await stream.next((e) => e.type === 'files' && e.deploymentId === home);
    expect(files).toMatchObject({ branch, files: [{ path: ORDERS, sha256: sha256(content) }] });

    const committed = await svc.call('POST', `${buildPath(home)}/commit`, { auth: developer.auth, body: { branchName: branch, message: 'live' } });
    expect(committed.status).toBe(200);
    expect(committed.body.commit).toMatch(/^[0-9a-f]{40}$/);
    const moved = await stream.next((e) => e.type === 'branch' && e.branch === branch && e.commit === committed.body.commit);
    expect(moved.deploymentId).toBe(home);

    const merged = await svc.call('POST', `${buildPath(home)}/merge-to-default`, { auth: developer.auth, body: { branchName: branch } });
    expect(merged.status, merged.text).toBe(200);
    const deployHead = merged.body.commit as string;
    // A fast-forward merge gives the deploy branch the dev branch's commit, and the dev branch (served
    // in dev mode) builds that commit too, at the same time: only the deploy branch's build is asked for.
    const deployBranch = merged.body.targetBranch as string;
    const built = await stream.next(
      (e) => e.type === 'build' && e.deploymentId === home && e.branch === deployBranch && e.commit === deployHead && (e.status === 'succeeded' || e.status === 'failed'),
      120_000,
    );
    expect(built).toMatchObject({ deploymentId: home, branch: deployBranch });
    // The build is a job: its progress and end came as job events too.
    await stream.next((e) => e.type === 'job' && e.job.kind === 'build' && e.job.id === (built.type === 'build' ? built.buildId : '') && e.job.status === 'COMPLETED');
    await stream.next((e) => e.type === 'write' && e.operationId === 'mergeBranchToDefault' && e.deploymentId === home);
  });

  it('a deployment token sees only its deployment’s events, and no tenant-wide writes', async () => {
    const minted = await svc.call('POST', `/api/v1/deployments/${home}/token`);
    expect(minted.status).toBe(200);
    const scoped = await open(`Bearer ${minted.body.token}`);
    const admin = await open(`Api-Key ${ADMIN_KEY}`);
    expect(scoped.status).toBe(200);
    const otherBranch = await devBranch(other);
    expect((await save(other, otherBranch, `${ORDERS_YML}# other\n`)).status).toBe(200);
    const settings = await svc.call('PUT', '/api/v1/tenant/settings', { body: { scheduledTasksEnabled: true } });
    expect(settings.status).toBe(200);
    const homeBranch = await devBranch(home);
    expect((await save(home, homeBranch, `${ORDERS_YML}# home\n`)).status).toBe(200);
    // Events arrive in order: once the home save is there, the earlier ones would have been too.
    await scoped.next((e) => e.type === 'files' && e.deploymentId === home);
    await admin.next((e) => e.type === 'files' && e.deploymentId === home);
    expect(scoped.events.filter((e) => e.deploymentId !== home && e.type !== 'resync')).toEqual([]);
    expect(admin.events.some((e) => e.type === 'files' && e.deploymentId === other)).toBe(true);
    expect(admin.events.some((e) => e.type === 'write' && e.deploymentId === null)).toBe(true);
  });

  it('a viewer sees deployment events but not tenant-wide writes; asking for another deployment with a scoped token is 403', async () => {
    const viewer = createUser(svc, 'viewer');
    const stream = await open(viewer.auth);
    await svc.call('PUT', '/api/v1/tenant/settings', { body: { scheduledTasksEnabled: false } });
    const branch = await devBranch(home);
    await save(home, branch, `${ORDERS_YML}# viewer sees\n`);
    await stream.next((e) => e.type === 'files' && e.deploymentId === home);
    expect(stream.events.filter((e) => e.type === 'write' && e.deploymentId === null)).toEqual([]);

    const minted = await svc.call('POST', `/api/v1/deployments/${home}/token`);
    const res = await svc.call('GET', `/api/v1/events?deploymentId=${other}`, { auth: `Bearer ${minted.body.token}` });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('a reconnect with Last-Event-ID replays what was missed; an id the service does not hold answers resync', async () => {
    const first = await open(developer.auth);
    const branch = await devBranch(home);
    await save(home, branch, `${ORDERS_YML}# one\n`);
    const seen = await first.next((e) => e.type === 'files' && e.deploymentId === home);
    first.close();
    const missed = `${ORDERS_YML}# missed while away\n`;
    await save(home, branch, missed);
    const again = await open(developer.auth, { lastEventId: seen.id });
    const replayed = await again.next((e) => e.type === 'files' && e.files[0]?.sha256 === sha256(missed));
    expect(replayed.id > seen.id || replayed.id.length > seen.id.length).toBe(true);

    const stale = await open(developer.auth, { lastEventId: '00000000-5' });
    expect((await stale.next((e) => e.type === 'resync')).type).toBe('resync');
  });

  it('without Accept: text/event-stream it answers a JSON page of the events after `since`', async () => {
    const start = await svc.call('GET', '/api/v1/events', { auth: developer.auth });
    expect(start.status).toBe(200);
    expect(start.body.events).toEqual([]);
    const branch = await devBranch(home);
    await save(home, branch, `${ORDERS_YML}# page\n`);
    const page = await svc.call('GET', `/api/v1/events?since=${start.body.lastEventId}&deploymentId=${home}`, { auth: developer.auth });
    expect(page.status).toBe(200);
    expect(page.body.events.some((e: { type: string }) => e.type === 'files')).toBe(true);
    expect(page.body.events.every((e: { deploymentId: number | null }) => e.deploymentId === home)).toBe(true);
  });

  it('the stream ends once its credential is revoked', async () => {
    const user = await svc.ctx.tokens.issue({ userId: developer.id, kind: 'workspace', ttlSeconds: 3600 });
    const stream = await open(`Bearer ${user.token}`);
    expect(stream.status).toBe(200);
    svc.ctx.tokens.revoke(user.sid);
    await stream.ended;
    const again = await svc.call('GET', '/api/v1/events', { auth: `Bearer ${user.token}` });
    expect(again.status).toBe(401);
  });

  it('answers 401 without a credential', async () => {
    const res = await svc.call('GET', '/api/v1/events', { auth: null, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(401);
  });

  it('an OAuth token bound to no deployment sees deployment events but no tenant-wide ones', async () => {
    const stream = await open(await bearerFor(svc, developer.id, 'oauth', { scopes: ['deployment.read'] }));
    expect(stream.status).toBe(200);
    await svc.call('PUT', '/api/v1/tenant/settings', { body: { scheduledTasksEnabled: true } });
    const branch = await devBranch(home);
    await save(home, branch, `${ORDERS_YML}# oauth\n`);
    await stream.next((e) => e.type === 'files' && e.deploymentId === home);
    expect(stream.events.filter((e) => e.deploymentId === null && e.type !== 'resync')).toEqual([]);
  });
});
