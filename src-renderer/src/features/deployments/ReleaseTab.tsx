import { useEffect, useState } from 'react';
import { listDeploymentVersions, type Deployment, type ReleaseChannel, type UpdateDeploymentInput } from '../../../../src-shared/api/deployments';
import type { ResponseOf } from '../../../../src-shared/api/contract';
import { api } from '../../app/session';
import { DataTable } from '../../lib/DataTable';
import { errorFor } from '../../lib/errors';
import { Badge, Button, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';
import { RELEASE_CHANNEL_LABELS, labelOf } from './labels';
import { useDeployments } from './store';

/** The versions of each release channel; pin one (optionally holding it) or follow the channel's latest. */
export function ReleaseTab({ deployment }: { deployment: Deployment }) {
  const update = useDeployments((s) => s.update);
  const catalog = useQuery((signal) => api.call(listDeploymentVersions, { params: { deploymentId: deployment.id }, signal }), [deployment.id, deployment.updatedAt], 'Loading versions');
  const { busy, error, setError, run } = useAction('Changing the version');
  const change = (patch: UpdateDeploymentInput, label: string) => run(() => update(deployment.id, patch), label);
  // The switch moves at once; it moves back if the service refuses.
  const [hold, setHold] = useState(deployment.releaseChannelVersionHold);
  useEffect(() => setHold(deployment.releaseChannelVersionHold), [deployment.releaseChannelVersionHold]);
  const toggleHold = async (next: boolean) => {
    setHold(next);
    if (!(await change({ releaseChannelVersionHold: next }, next ? 'Holding the version' : 'Releasing the hold'))) setHold(!next);
  };
  const data = catalog.data;
  const fieldProblem = errorFor(error, 'releaseChannelVersion') ?? errorFor(error, 'releaseChannel') ?? errorFor(error, 'releaseChannelVersionHold');

  return (
    <div className="two-col">
      <div className="detail-stack">
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        <ProblemBanner error={catalog.error} />
        {!data ? (
          catalog.loading && <Spinner label="Loading versions…" />
        ) : (
          data.channels.map((channel) => (
            <section key={channel.releaseChannel} className="panel" aria-label={`${labelOf(RELEASE_CHANNEL_LABELS, channel.releaseChannel)} channel`}>
              <div className="panel-head">
                <h2>
                  {labelOf(RELEASE_CHANNEL_LABELS, channel.releaseChannel)} channel {channel.releaseChannel === deployment.releaseChannel && <Badge tone="info">followed</Badge>}
                </h2>
                {(channel.releaseChannel !== deployment.releaseChannel || deployment.releaseChannelVersion !== null) && (
                  <Button
                    className="btn-small"
                    busy={busy}
                    onClick={() => void change({ releaseChannel: channel.releaseChannel as ReleaseChannel, releaseChannelVersion: null }, `Following the latest ${channel.releaseChannel} version`)}
                  >
                    Follow latest ({channel.latestVersion})
                  </Button>
                )}
              </div>
              <VersionTable channel={channel} deployment={deployment} busy={busy} onChange={change} />
            </section>
          ))
        )}
      </div>
      <aside className="panel" aria-label="Release">
        <h2>Running</h2>
        <dl className="facts">
          <dt>Channel</dt>
          <dd>{labelOf(RELEASE_CHANNEL_LABELS, deployment.releaseChannel)}</dd>
          <dt>Version</dt>
          <dd>
            <code className="strong">{deployment.currentVersion}</code>
          </dd>
          <dt>Pinned</dt>
          <dd>{deployment.releaseChannelVersion ? <code>{deployment.releaseChannelVersion}</code> : <span className="muted">no — follows the latest</span>}</dd>
        </dl>
        <div className="switch-row hold-row">
          <input
            id="release-hold"
            type="checkbox"
            className="switch"
            role="switch"
            checked={hold}
            disabled={busy}
            onChange={(e) => void toggleHold(e.target.checked)}
          />
          <label htmlFor="release-hold">
            <span className="strong">Hold the pinned version</span>
            <span className="muted small">Stay on it when the channel moves on, instead of following.</span>
          </label>
        </div>
        {fieldProblem && <div className="field-error">{fieldProblem}</div>}
      </aside>
    </div>
  );
}

type Channel = ResponseOf<typeof listDeploymentVersions>['channels'][number];

/** One channel's versions; the running one is marked, every other can be pinned. */
function VersionTable({
  channel,
  deployment,
  busy,
  onChange,
}: {
  channel: Channel;
  deployment: Deployment;
  busy: boolean;
  onChange: (patch: UpdateDeploymentInput, label: string) => unknown;
}) {
  const followed = channel.releaseChannel === deployment.releaseChannel;
  const pinned = (version: string) => followed && deployment.releaseChannelVersion === version;
  const running = (version: string) => followed && deployment.currentVersion === version;
  return (
    <DataTable
      label={`${channel.releaseChannel} versions`}
      rows={channel.versions}
      rowKey={(v) => v.version}
      rowClassName={(v) => (running(v.version) ? 'selected' : undefined)}
      columns={[
        { header: 'Version', cell: (v) => <code className="strong">{v.version}</code> },
        { header: 'Released', cell: (v) => <Time value={v.releasedAt} /> },
        {
          header: 'State',
          cell: (v) => (
            <span className="badges">
              {v.version === channel.latestVersion && <Badge>latest</Badge>}
              {running(v.version) && <Badge tone="good">running</Badge>}
              {pinned(v.version) && <Badge tone="warn">pinned{deployment.releaseChannelVersionHold ? ', held' : ''}</Badge>}
            </span>
          ),
        },
      ]}
      actions={[
        {
          label: 'Pin',
          ariaLabel: (v) => `Pin ${channel.releaseChannel} ${v.version}`,
          hidden: (v) => pinned(v.version),
          disabled: () => busy,
          onClick: (v) => void onChange({ releaseChannel: channel.releaseChannel as ReleaseChannel, releaseChannelVersion: v.version }, `Pinning ${v.version}`),
        },
      ]}
    />
  );
}
