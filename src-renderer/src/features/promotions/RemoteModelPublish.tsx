import { useEffect, useState } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import type { Profile } from '../../../../src-shared/api/profiles';
import { previewRemoteModelPublish, startRemoteModelPublish, type RemotePublishPreview } from '../../../../src-shared/api/remote-transfers';
import { localApi } from '../../app/session';
import { Badge, Button, EmptyState, Field, ProblemBanner, Spinner } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { newIdempotencyKey, useBranchesOf, useDeploymentsOf, useTransfer } from './remote';
import { TransferProgress } from './TransferProgress';

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
  const [sourceDeploymentId, setSourceDeploymentId] = useState<number | null>(null);
  const [branchName, setBranchName] = useState<string | null>(null);
  const [profile, setProfile] = useState<string | null>(null);
  const [targetDeploymentId, setTargetDeploymentId] = useState<number | null>(null);
  /** '' = the remote's deploy branch. */
  const [targetBranch, setTargetBranch] = useState('');
  const [message, setMessage] = useState('');
  const [preview, setPreview] = useState<RemotePublishPreview | null>(null);
  const [key, setKey] = useState<string | null>(null);
  const [transferId, setTransferId] = useState<string | null>(null);

  const branches = useBranchesOf(null, sourceDeploymentId);
  const remoteDeployments = useDeploymentsOf(profile, profile !== null);
  const remoteBranches = useBranchesOf(profile, profile !== null ? targetDeploymentId : null);
  const previewing = useAction('Preview');
  const starting = useAction('Publish');
  const { transfer, error: followError } = useTransfer(transferId, onEnded);

  useEffect(() => {
    if (sourceDeploymentId === null && deployments?.length) setSourceDeploymentId(deployments[0].id);
  }, [deployments, sourceDeploymentId]);
  useEffect(() => {
    if (branchName === null && branches.data?.length) setBranchName((branches.data.find((b) => b.isDeployBranch) ?? branches.data[0]).branchName);
  }, [branches.data, branchName]);
  useEffect(() => {
    if (profile === null && profiles.length) setProfile(profiles[0].name);
  }, [profiles, profile]);
  useEffect(() => {
    if (targetDeploymentId === null && remoteDeployments.data?.length) setTargetDeploymentId(remoteDeployments.data[0].id);
  }, [remoteDeployments.data, targetDeploymentId]);
  useEffect(() => {
    setPreview(null);
    setTransferId(null);
  }, [sourceDeploymentId, branchName, profile, targetDeploymentId, targetBranch]);

  const target = () => ({
    profileName: profile ?? '',
    branchName: branchName ?? undefined,
    targetDeploymentId: targetDeploymentId ?? 0,
    ...(targetBranch ? { targetBranch } : {}),
  });

  const runPreview = () =>
    void previewing.run(async () => {
      if (sourceDeploymentId === null) return;
      setPreview(await localApi.call(previewRemoteModelPublish, { params: { deploymentId: sourceDeploymentId }, body: target() }));
      setKey(newIdempotencyKey());
      setTransferId(null);
    });

  const publish = () =>
    void starting.run(async () => {
      if (!preview || sourceDeploymentId === null || !key) return;
      const started = await localApi.call(startRemoteModelPublish, {
        params: { deploymentId: sourceDeploymentId },
        body: {
          ...target(),
          targetBranch: preview.target.branchName,
          sourceCommit: preview.source.commit,
          targetCommit: preview.target.commit,
          ...(message.trim() ? { message: message.trim() } : {}),
          idempotencyKey: key,
        },
      });
      setTransferId(started.id);
      onStarted(started.id);
    });

  const ready = branchName !== null && profile !== null && targetDeploymentId !== null;
  if (profiles.length === 0) return <EmptyState title="No other profile yet">Add one on the Profiles screen, then come back.</EmptyState>;

  return (
    <>
      <section className="panel" aria-label="Model branch to another profile">
        <div className="form-row">
          <Field label="Source deployment (this computer)" htmlFor="mp-source-deployment">
            <select
              id="mp-source-deployment"
              value={sourceDeploymentId ?? ''}
              onChange={(e) => {
                setSourceDeploymentId(Number(e.target.value));
                setBranchName(null);
              }}
            >
              {(deployments ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </Field>
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
          <Field label="To profile" htmlFor="mp-profile">
            <select
              id="mp-profile"
              value={profile ?? ''}
              onChange={(e) => {
                setProfile(e.target.value);
                setTargetDeploymentId(null);
                setTargetBranch('');
              }}
            >
              {profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} — {p.baseUrl}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Target deployment (remote)" htmlFor="mp-target-deployment">
            <select
              id="mp-target-deployment"
              value={targetDeploymentId ?? ''}
              onChange={(e) => {
                setTargetDeploymentId(Number(e.target.value));
                setTargetBranch('');
              }}
            >
              {targetDeploymentId === null && <option value="">{remoteDeployments.loading ? 'Loading…' : 'Choose…'}</option>}
              {(remoteDeployments.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </Field>
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
        <ProblemBanner error={branches.error ?? remoteDeployments.error ?? remoteBranches.error} />
        <div className="form-actions">
          <Button variant={preview ? 'default' : 'primary'} onClick={runPreview} busy={previewing.busy} disabled={!ready}>
            {preview ? 'Preview again' : 'Preview'}
          </Button>
        </div>
      </section>

      <ProblemBanner
        error={previewing.error ?? starting.error}
        onDismiss={() => {
          previewing.setError(null);
          starting.setError(null);
        }}
      />
      {transferId !== null && <TransferProgress transfer={transfer} error={followError} />}
      {previewing.busy && <Spinner label={`Comparing with ${profile}…`} />}
      {preview && (
        <section className="panel" aria-label="Publish preview">
          <div className="panel-head">
            <h2>
              {preview.source.branchName} → {preview.target.branchName} on {preview.profileName}{' '}
              {!preview.target.exists && <Badge tone="good">new branch</Badge>}
            </h2>
            {transferId === null && (
              <Button variant="primary" onClick={publish} busy={starting.busy} disabled={preview.identical}>
                Publish to {preview.profileName}
              </Button>
            )}
          </div>
          <p className="muted">
            Local commit <code>{preview.source.commit.slice(0, 12)}</code> · remote {preview.target.commit ? <code>{preview.target.commit.slice(0, 12)}</code> : 'branch not created yet'} ·{' '}
            {preview.files.length} to change, {preview.unchangedCount} unchanged, {Math.ceil(preview.bytesToSend / 1024)} KiB to send
          </p>
          {preview.warnings.map((w) => (
            <div key={w} className="promo-note" role="note">
              {w}
            </div>
          ))}
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
