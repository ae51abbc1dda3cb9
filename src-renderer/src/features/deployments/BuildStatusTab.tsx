import { useState, type FormEvent } from 'react';
import { getDeploymentBuildStatus, type BuildStatus, type Deployment, type DeployStatus } from '../../../../src-shared/api/deployments';
import { listEnvironments } from '../../../../src-shared/api/environments';
import { api } from '../../app/session';
import { errorFor } from '../../lib/errors';
import { fetchAllPages } from '../../lib/paging';
import { Badge, Button, Field, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';

const BUILD_TONES: Record<BuildStatus, 'neutral' | 'info' | 'good' | 'bad' | 'warn'> = { idle: 'neutral', queued: 'warn', building: 'info', succeeded: 'good', failed: 'bad' };
const DEPLOY_TONES: Record<DeployStatus, 'neutral' | 'info' | 'good' | 'bad' | 'warn'> = { not_deployed: 'neutral', deploying: 'info', deployed: 'good', failed: 'bad' };

/** The build and deploy state of one branch (the deploy branch unless another is asked for). */
export function BuildStatusTab({ deployment }: { deployment: Deployment }) {
  const [input, setInput] = useState(deployment.deployBranch);
  const [branch, setBranch] = useState(deployment.deployBranch);
  const state = useQuery(
    (signal) => api.call(getDeploymentBuildStatus, { params: { deploymentId: deployment.id }, query: { branch }, signal }),
    [deployment.id, branch],
    `Loading the build status of ${branch}`,
    (e) => (e.type === 'build' || e.type === 'branch') && e.deploymentId === deployment.id && e.branch === branch,
  );
  const environments = useQuery(
    (signal) => fetchAllPages((after) => api.call(listEnvironments, { params: { deploymentId: deployment.id }, query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [deployment.id],
    'Loading environments',
  );
  const branches = [...new Set([deployment.deployBranch, ...(environments.data ?? []).map((e) => e.branchName)])];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === branch) state.reload();
    else setBranch(input.trim());
  };
  const data = state.data;

  return (
    <div className="two-col">
      <section className="panel" aria-label="Build status">
        <h2>Build and deploy state</h2>
        <form className="inline-form" onSubmit={submit} aria-label="Choose a branch">
          <Field label="Branch" htmlFor="build-branch" error={errorFor(state.error, 'branch')} hint="A branch of the model repository; environments’ branches are suggested.">
            <input id="build-branch" list="build-branches" value={input} onChange={(e) => setInput(e.target.value)} spellCheck={false} autoComplete="off" />
          </Field>
          <datalist id="build-branches">
            {branches.map((b) => (
              <option key={b} value={b} />
            ))}
          </datalist>
          <Button type="submit" variant="primary" busy={state.loading} disabled={!input.trim()}>
            Check
          </Button>
        </form>
        <ProblemBanner error={state.error} />
        {!data ? (
          state.loading && <Spinner />
        ) : (
          <div className="status-board" aria-live="polite">
            <div className="status-tile">
              <div className="status-label">Build</div>
              <Badge tone={BUILD_TONES[data.buildStatus]}>{data.buildStatus}</Badge>
            </div>
            <div className="status-tile">
              <div className="status-label">Deploy</div>
              <Badge tone={DEPLOY_TONES[data.deployStatus]}>{data.deployStatus.replace('_', ' ')}</Badge>
            </div>
            <dl className="facts status-facts">
              <dt>Branch</dt>
              <dd>
                <code>{data.branch}</code> {data.isDeployBranch && <Badge tone="info">deploy branch</Badge>}
              </dd>
              <dt>Commit</dt>
              <dd>{data.commit ? <code title={data.commit}>{data.commit.slice(0, 12)}</code> : <span className="muted">—</span>}</dd>
              <dt>Build job</dt>
              <dd>{data.buildJobId ? <code>{data.buildJobId}</code> : <span className="muted">—</span>}</dd>
              <dt>Detail</dt>
              <dd>{data.detail ?? <span className="muted">—</span>}</dd>
              <dt>Updated</dt>
              <dd>
                <Time value={data.updatedAt} />
              </dd>
            </dl>
          </div>
        )}
      </section>
      <aside className="panel">
        <h2>Branches with environments</h2>
        <ProblemBanner error={environments.error} />
        <ul className="branch-links">
          {branches.map((b) => (
            <li key={b}>
              <button
                type="button"
                className={`link ${b === branch ? 'strong' : ''}`}
                onClick={() => {
                  setInput(b);
                  setBranch(b);
                }}
              >
                {b}
              </button>
              {b === deployment.deployBranch && <span className="muted small"> deploy branch</span>}
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
