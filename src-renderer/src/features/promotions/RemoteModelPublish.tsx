import { useEffect, useState } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import type { Profile } from '../../../../src-shared/api/profiles';
import { previewRemoteModelPublish, startRemoteModelPublish, type RemotePublishPreview } from '../../../../src-shared/api/remote-transfers';
import { localApi } from '../../app/session';
import { Badge, Button, EmptyState, Field, ProblemBanner, Spinner } from '../../lib/ui';
import { useBranchesOf } from './remote';
import { PreviewButton, PreviewWarnings, RemoteTargetFields, SourceDeploymentField, TransferState, useRemoteTransferFlow } from './useRemoteTransferFlow';

const STATUS_TONE = { added: 'good', modified: 'warn', deleted: 'bad' } as const;

/**
 * A model branch of this computer → a deployment of another profile, through that service's upload
 * API: the remote branch ends up with exactly the local branch's files, in one commit.
 */
export function RemoteModelPublish({
  profiles,
  deployments,
  onStarted,
  onEnded,
}: {
  profiles: Profile[];
  deployments: Deployment[] | null;
  onStarted: (id: string) => void;
  onEnded: () => void;
}) {
  const [branchName, setBranchName] = useState<string | null>(null);
  /** '' = the remote's deploy branch. */
  const [targetBranch, setTargetBranch] = useState('');
  const [message, setMessage] = useState('');
  const flow = useRemoteTransferFlow<RemotePublishPreview>({ profiles, deployments, startLabel: 'Publish', onStarted, onEnded, compared: [branchName, targetBranch] });
  const { sourceDeploymentId, profile, targetDeploymentId, preview } = flow;

  const branches = useBranchesOf(null, sourceDeploymentId);
  const remoteBranches = useBranchesOf(profile, profile !== null ? targetDeploymentId : null);

  useEffect(() => {
    if (branchName === null && branches.data?.length) setBranchName((branches.data.find((b) => b.isDeployBranch) ?? branches.data[0]).branchName);
  }, [branches.data, branchName]);

  const target = () => ({
    profileName: profile ?? '',
    branchName: branchName ?? undefined,
    targetDeploymentId: targetDeploymentId ?? 0,
    ...(targetBranch ? { targetBranch } : {}),
  });

  const runPreview = () =>
    flow.runPreview(async () =>
      sourceDeploymentId === null ? undefined : localApi.call(previewRemoteModelPublish, { params: { deploymentId: sourceDeploymentId }, body: target() }),
    );

  const publish = () =>
    flow.start(async (previewed, idempotencyKey) =>
      sourceDeploymentId === null
        ? undefined
        : localApi.call(startRemoteModelPublish, {
            params: { deploymentId: sourceDeploymentId },
            body: {
              ...target(),
              targetBranch: previewed.target.branchName,
              sourceCommit: previewed.source.commit,
              targetCommit: previewed.target.commit,
              ...(message.trim() ? { message: message.trim() } : {}),
              idempotencyKey,
            },
          }),
    );

  const ready = branchName !== null && profile !== null && targetDeploymentId !== null;
  if (profiles.length === 0) return <EmptyState title="No other profile yet">Add one on the Profiles screen, then come back.</EmptyState>;

  return (
    <>
      <section className="panel" aria-label="Model branch to another profile">
        <div className="form-row">
          <SourceDeploymentField id="mp-source-deployment" flow={flow} deployments={deployments} onChosen={() => setBranchName(null)} />
          <Field label="Branch" htmlFor="mp-branch">
            <select id="mp-branch" value={branchName ?? ''} onChange={(e) => setBranchName(e.target.value)}>
              {(branches.data ?? []).map((b) => (
                <option key={b.branchName} value={b.branchName}>
                  {b.branchName}
                  {b.isDeployBranch ? ' (deploy)' : ''}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="form-row">
          <RemoteTargetFields idPrefix="mp" flow={flow} profiles={profiles} onTargetChosen={() => setTargetBranch('')} />
          <Field label="Target branch (remote)" htmlFor="mp-target-branch" hint="A branch that does not exist there yet is created from its deploy branch.">
            <input id="mp-target-branch" list="mp-remote-branches" value={targetBranch} onChange={(e) => setTargetBranch(e.target.value.trim())} placeholder="Deploy branch" autoComplete="off" />
            <datalist id="mp-remote-branches">
              {(remoteBranches.data ?? []).map((b) => (
                <option key={b.branchName} value={b.branchName} />
              ))}
            </datalist>
          </Field>
        </div>
        <Field label="Commit message on the remote (optional)" htmlFor="mp-message">
          <input id="mp-message" value={message} onChange={(e) => setMessage(e.target.value)} maxLength={2000} placeholder={`Publish ${branchName ?? ''} from Drydock`} />
        </Field>
        <ProblemBanner error={branches.error ?? flow.remoteDeployments.error ?? remoteBranches.error} />
        <PreviewButton flow={flow} onClick={runPreview} disabled={!ready} />
      </section>

      <TransferState flow={flow} />
      {flow.previewing.busy && <Spinner label={`Comparing with ${profile}…`} />}
      {preview && (
        <section className="panel" aria-label="Publish preview">
          <div className="panel-head">
            <h2>
              {preview.source.branchName} → {preview.target.branchName} on {preview.profileName}{' '}
              {!preview.target.exists && <Badge tone="good">new branch</Badge>}
            </h2>
            {flow.transferId === null && (
              <Button variant="primary" onClick={publish} busy={flow.starting.busy} disabled={preview.identical}>
                Publish to {preview.profileName}
              </Button>
            )}
          </div>
          <p className="muted">
            Local commit <code>{preview.source.commit.slice(0, 12)}</code> · remote {preview.target.commit ? <code>{preview.target.commit.slice(0, 12)}</code> : 'branch not created yet'} ·{' '}
            {preview.files.length} to change, {preview.unchangedCount} unchanged, {Math.ceil(preview.bytesToSend / 1024)} KiB to send
          </p>
          <PreviewWarnings warnings={preview.warnings} />
          {preview.identical ? (
            <div className="promo-note promo-note-good" role="status">
              The remote branch already has exactly these files.
            </div>
          ) : (
            <ul className="publish-files" aria-label="Files to change">
              {preview.files.map((f) => (
                <li key={f.path}>
                  <Badge tone={STATUS_TONE[f.status]}>{f.status}</Badge> <code>{f.path}</code>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}
