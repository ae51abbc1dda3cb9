import { useState } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import type { Profile } from '../../../../src-shared/api/profiles';
import { previewRemoteWorkbookPromotion, startRemoteWorkbookPromotion, type RemotePromotionPreview } from '../../../../src-shared/api/remote-transfers';
import { localApi } from '../../app/session';
import { Button, EmptyState, Field, ProblemBanner, Spinner } from '../../lib/ui';
import { deploymentLabel } from '../workbooks/data';
import { PromotionPreviewView } from './PromotionPreview';
import { useWorkbooksOf } from './remote';
import { PreviewButton, PreviewWarnings, RemoteTargetFields, SourceDeploymentField, TransferState, useRemoteTransferFlow } from './useRemoteTransferFlow';

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
  const [workbookId, setWorkbookId] = useState<number | null>(initial.workbookId);
  const [targetWorkbookId, setTargetWorkbookId] = useState<number | null>(null);
  const flow = useRemoteTransferFlow<RemotePromotionPreview>({
    profiles,
    deployments,
    initialDeploymentId: initial.deploymentId,
    startLabel: 'Promotion',
    onStarted,
    onEnded,
    compared: [workbookId, targetWorkbookId],
  });
  const { sourceDeploymentId, profile, targetDeploymentId, preview } = flow;

  const workbooks = useWorkbooksOf(null, sourceDeploymentId);
  const remoteWorkbooks = useWorkbooksOf(profile, profile !== null ? targetDeploymentId : null);

  const runPreview = () =>
    flow.runPreview(async () =>
      sourceDeploymentId === null || workbookId === null || profile === null || targetDeploymentId === null
        ? undefined
        : localApi.call(previewRemoteWorkbookPromotion, {
            params: { deploymentId: sourceDeploymentId, workbookId },
            body: { profileName: profile, targetDeploymentId, ...(targetWorkbookId !== null ? { targetWorkbookId } : {}) },
          }),
    );

  const promote = () =>
    flow.start(async (previewed, idempotencyKey) =>
      sourceDeploymentId === null || workbookId === null
        ? undefined
        : localApi.call(startRemoteWorkbookPromotion, {
            params: { deploymentId: sourceDeploymentId, workbookId },
            body: {
              profileName: previewed.profileName,
              targetDeploymentId: previewed.target.deploymentId,
              ...(previewed.target.workbookId !== null ? { targetWorkbookId: previewed.target.workbookId } : {}),
              sourceHash: previewed.sourceHash,
              targetHash: previewed.targetHash,
              idempotencyKey,
            },
          }),
    );

  const remoteLabel = (id: number) => `${flow.remoteDeployments.data?.find((d) => d.id === id)?.name ?? `deployment ${id}`} on ${profile}`;
  const ready = workbookId !== null && profile !== null && targetDeploymentId !== null;

  return (
    <>
      <section className="panel" aria-label="Workbook to another profile">
        <div className="form-row">
          <SourceDeploymentField id="rp-source-deployment" flow={flow} deployments={deployments} onChosen={() => setWorkbookId(null)} />
          <Field label="Workbook" htmlFor="rp-workbook">
            <select id="rp-workbook" value={workbookId ?? ''} onChange={(e) => setWorkbookId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">{workbooks.loading ? 'Loading…' : 'Choose a workbook'}</option>
              <WorkbookOptions workbooks={workbooks.data} />
            </select>
          </Field>
        </div>
        <div className="form-row">
          <RemoteTargetFields idPrefix="rp" flow={flow} profiles={profiles} onTargetChosen={() => setTargetWorkbookId(null)} />
          <Field label="Target workbook (remote)" htmlFor="rp-target-workbook" hint={targetWorkbookId === null ? 'The one last promoted to, else the same slug, else a new one.' : undefined}>
            <select id="rp-target-workbook" value={targetWorkbookId ?? ''} onChange={(e) => setTargetWorkbookId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">Automatic</option>
              <WorkbookOptions workbooks={remoteWorkbooks.data} />
            </select>
          </Field>
        </div>
        <ProblemBanner error={workbooks.error ?? flow.remoteDeployments.error ?? remoteWorkbooks.error} />
        <PreviewButton flow={flow} onClick={runPreview} disabled={!ready} />
      </section>

      <TransferState flow={flow} />
      {preview ? (
        <>
          <PreviewWarnings warnings={preview.warnings} />
          <PromotionPreviewView
            preview={preview}
            deployments={deployments}
            stale={false}
            where={{ source: deploymentLabel(deployments, preview.source.deploymentId), target: remoteLabel(preview.target.deploymentId) }}
            actions={
              flow.transferId === null ? (
                <Button variant="primary" onClick={promote} busy={flow.starting.busy}>
                  {preview.operation === 'CREATE' ? `Promote to ${preview.profileName}: create` : `Promote to ${preview.profileName}: update`}
                </Button>
              ) : null
            }
          />
        </>
      ) : (
        !flow.previewing.busy &&
        (profiles.length === 0 ? (
          <EmptyState title="No other profile yet">Add one on the Profiles screen, then come back.</EmptyState>
        ) : (
          ready && <p className="muted">Press Preview: nothing is written on {profile} until you promote, and the promotion stops if either side changes in between.</p>
        ))
      )}
      {flow.previewing.busy && <Spinner label={`Asking ${profile}…`} />}
    </>
  );
}

/** One <option> a workbook: its name and slug. */
export function WorkbookOptions({ workbooks }: { workbooks: readonly { id: number; name: string; slug: string }[] | null }) {
  return (
    <>
      {(workbooks ?? []).map((w) => (
        <option key={w.id} value={w.id}>
          {w.name} ({w.slug})
        </option>
      ))}
    </>
  );
}
