import { useEffect, useState } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import type { Profile } from '../../../../src-shared/api/profiles';
import { previewRemoteWorkbookPromotion, startRemoteWorkbookPromotion, type RemotePromotionPreview } from '../../../../src-shared/api/remote-transfers';
import { localApi } from '../../app/session';
import { Button, EmptyState, Field, ProblemBanner, Spinner } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { deploymentLabel } from '../workbooks/data';
import { PromotionPreviewView } from './PromotionPreview';
import { newIdempotencyKey, useDeploymentsOf, useTransfer, useWorkbooksOf } from './remote';
import { TransferProgress } from './TransferProgress';

/**
 * A workbook of this computer → a deployment of another profile: choose, preview (nothing is
 * written), promote (a job on the local service), follow it to the end.
 */
export function RemoteWorkbookPromotion({
  profiles,
  deployments,
  initial,
  onStarted,
  onEnded,
}: {
  profiles: Profile[];
  deployments: Deployment[] | null;
  initial: { deploymentId: number | null; workbookId: number | null };
  onStarted: (id: string) => void;
  onEnded: () => void;
}) {
  const [sourceDeploymentId, setSourceDeploymentId] = useState<number | null>(initial.deploymentId);
  const [workbookId, setWorkbookId] = useState<number | null>(initial.workbookId);
  const [profile, setProfile] = useState<string | null>(null);
  const [targetDeploymentId, setTargetDeploymentId] = useState<number | null>(null);
  const [targetWorkbookId, setTargetWorkbookId] = useState<number | null>(null);
  const [preview, setPreview] = useState<RemotePromotionPreview | null>(null);
  const [key, setKey] = useState<string | null>(null);
  const [transferId, setTransferId] = useState<string | null>(null);

  const workbooks = useWorkbooksOf(null, sourceDeploymentId);
  const remoteDeployments = useDeploymentsOf(profile, profile !== null);
  const remoteWorkbooks = useWorkbooksOf(profile, profile !== null ? targetDeploymentId : null);
  const previewing = useAction('Preview');
  const starting = useAction('Promotion');
  const { transfer, error: followError } = useTransfer(transferId, onEnded);

  useEffect(() => {
    if (sourceDeploymentId === null && deployments?.length) setSourceDeploymentId(deployments[0].id);
  }, [deployments, sourceDeploymentId]);
  useEffect(() => {
    if (profile === null && profiles.length) setProfile(profiles[0].name);
  }, [profiles, profile]);
  useEffect(() => {
    if (targetDeploymentId === null && remoteDeployments.data?.length) setTargetDeploymentId(remoteDeployments.data[0].id);
  }, [remoteDeployments.data, targetDeploymentId]);
  // Any change of what is compared makes the preview meaningless.
  useEffect(() => {
    setPreview(null);
    setTransferId(null);
  }, [sourceDeploymentId, workbookId, profile, targetDeploymentId, targetWorkbookId]);

  const runPreview = () =>
    void previewing.run(async () => {
      if (sourceDeploymentId === null || workbookId === null || profile === null || targetDeploymentId === null) return;
      const fresh = await localApi.call(previewRemoteWorkbookPromotion, {
        params: { deploymentId: sourceDeploymentId, workbookId },
        body: { profileName: profile, targetDeploymentId, ...(targetWorkbookId !== null ? { targetWorkbookId } : {}) },
      });
      setPreview(fresh);
      setKey(newIdempotencyKey());
      setTransferId(null);
    });

  const promote = () =>
    void starting.run(async () => {
      if (!preview || sourceDeploymentId === null || workbookId === null || !key) return;
      const started = await localApi.call(startRemoteWorkbookPromotion, {
        params: { deploymentId: sourceDeploymentId, workbookId },
        body: {
          profileName: preview.profileName,
          targetDeploymentId: preview.target.deploymentId,
          ...(preview.target.workbookId !== null ? { targetWorkbookId: preview.target.workbookId } : {}),
          sourceHash: preview.sourceHash,
          targetHash: preview.targetHash,
          idempotencyKey: key,
        },
      });
      setTransferId(started.id);
      onStarted(started.id);
    });

  const remoteLabel = (id: number) => `${remoteDeployments.data?.find((d) => d.id === id)?.name ?? `deployment ${id}`} on ${profile}`;
  const ready = workbookId !== null && profile !== null && targetDeploymentId !== null;

  return (
    <>
      <section className="panel" aria-label="Workbook to another profile">
        <div className="form-row">
          <Field label="Source deployment (this computer)" htmlFor="rp-source-deployment">
            <select id="rp-source-deployment" value={sourceDeploymentId ?? ''} onChange={(e) => {
                setSourceDeploymentId(Number(e.target.value));
                setWorkbookId(null);
              }}>
              {(deployments ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Workbook" htmlFor="rp-workbook">
            <select id="rp-workbook" value={workbookId ?? ''} onChange={(e) => setWorkbookId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">{workbooks.loading ? 'Loading…' : 'Choose a workbook'}</option>
              {(workbooks.data ?? []).map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} ({w.slug})
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="form-row">
          <Field label="To profile" htmlFor="rp-profile">
            <select id="rp-profile" value={profile ?? ''} onChange={(e) => {
                setProfile(e.target.value);
                setTargetDeploymentId(null);
                setTargetWorkbookId(null);
              }}>
              {profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} — {p.baseUrl}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Target deployment (remote)" htmlFor="rp-target-deployment">
            <select id="rp-target-deployment" value={targetDeploymentId ?? ''} onChange={(e) => {
                setTargetDeploymentId(Number(e.target.value));
                setTargetWorkbookId(null);
              }}>
              {targetDeploymentId === null && <option value="">{remoteDeployments.loading ? 'Loading…' : 'Choose…'}</option>}
              {(remoteDeployments.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Target workbook (remote)" htmlFor="rp-target-workbook" hint={targetWorkbookId === null ? 'The one last promoted to, else the same slug, else a new one.' : undefined}>
            <select id="rp-target-workbook" value={targetWorkbookId ?? ''} onChange={(e) => setTargetWorkbookId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">Automatic</option>
              {(remoteWorkbooks.data ?? []).map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} ({w.slug})
                </option>
              ))}
            </select>
          </Field>
        </div>
        <ProblemBanner error={workbooks.error ?? remoteDeployments.error ?? remoteWorkbooks.error} />
        <div className="form-actions">
          <Button variant={preview ? 'default' : 'primary'} onClick={runPreview} busy={previewing.busy} disabled={!ready}>
            {preview ? 'Preview again' : 'Preview'}
          </Button>
        </div>
      </section>

      <ProblemBanner error={previewing.error ?? starting.error} onDismiss={() => {
          previewing.setError(null);
          starting.setError(null);
        }} />
      {transferId !== null && <TransferProgress transfer={transfer} error={followError} />}
      {preview ? (
        <>
          {preview.warnings.map((w) => (
            <div key={w} className="promo-note" role="note">
              {w}
            </div>
          ))}
          <PromotionPreviewView
            preview={preview}
            deployments={deployments}
            stale={false}
            where={{ source: deploymentLabel(deployments, preview.source.deploymentId), target: remoteLabel(preview.target.deploymentId) }}
            actions={
              transferId === null ? (
                <Button variant="primary" onClick={promote} busy={starting.busy}>
                  {preview.operation === 'CREATE' ? `Promote to ${preview.profileName}: create` : `Promote to ${preview.profileName}: update`}
                </Button>
              ) : null
            }
          />
        </>
      ) : (
        !previewing.busy &&
        (profiles.length === 0 ? (
          <EmptyState title="No other profile yet">Add one on the Profiles screen, then come back.</EmptyState>
        ) : (
          ready && <p className="muted">Press Preview: nothing is written on {profile} until you promote, and the promotion stops if either side changes in between.</p>
        ))
      )}
      {previewing.busy && <Spinner label={`Asking ${profile}…`} />}
    </>
  );
}
