import { useEffect, useState } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import type { Profile } from '../../../../src-shared/api/profiles';
import { Button, Field, NameOptions, ProblemBanner } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { newIdempotencyKey, useDeploymentsOf, useTransfer } from './remote';
import { TransferProgress } from './TransferProgress';

// What the two "to another profile" flows (a workbook promotion, a model branch publish) share:
// a local source deployment, a profile and one of its deployments as the target, a preview that
// any change of what is compared throws away, and a transfer started with the preview's
// idempotency key and followed to its end.

export interface RemoteTransferFlowOptions {
  profiles: Profile[];
  deployments: Deployment[] | null;
  /** The source deployment to start on (else the first of `deployments`). */
  initialDeploymentId?: number | null;
  /** Title of a failed start ("Publish", "Promotion"). */
  startLabel: string;
  onStarted: (id: string) => void;
  onEnded: () => void;
  /**
   * What else is compared besides source deployment, profile and target deployment (the branch,
   * the workbook …): a change of any of these throws the preview away.
   */
  compared: readonly unknown[];
}

export function useRemoteTransferFlow<P>({ profiles, deployments, initialDeploymentId = null, startLabel, onStarted, onEnded, compared }: RemoteTransferFlowOptions) {
  const [sourceDeploymentId, setSourceDeploymentId] = useState<number | null>(initialDeploymentId);
  const [profile, setProfile] = useState<string | null>(null);
  const [targetDeploymentId, setTargetDeploymentId] = useState<number | null>(null);
  const [preview, setPreview] = useState<P | null>(null);
  const [key, setKey] = useState<string | null>(null);
  const [transferId, setTransferId] = useState<string | null>(null);

  const remoteDeployments = useDeploymentsOf(profile, profile !== null);
  const previewing = useAction('Preview');
  const starting = useAction(startLabel);
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
  const comparedKey = JSON.stringify([sourceDeploymentId, profile, targetDeploymentId, ...compared]);
  useEffect(() => {
    setPreview(null);
    setTransferId(null);
  }, [comparedKey]);

  return {
    sourceDeploymentId,
    setSourceDeploymentId,
    profile,
    /** A new profile: its deployments are not the old one's, so the target is chosen again. */
    chooseProfile: (name: string) => {
      setProfile(name);
      setTargetDeploymentId(null);
    },
    targetDeploymentId,
    setTargetDeploymentId,
    remoteDeployments,
    preview,
    previewing,
    starting,
    transferId,
    transfer,
    followError,
    /** Asks for a preview (`ask` resolves to undefined when the choice is incomplete) and a fresh idempotency key. */
    runPreview: (ask: () => Promise<P | undefined>) =>
      void previewing.run(async () => {
        const fresh = await ask();
        if (fresh === undefined) return;
        setPreview(fresh);
        setKey(newIdempotencyKey());
        setTransferId(null);
      }),
    /** Starts the transfer of the previewed state and follows it. */
    start: (begin: (preview: P, idempotencyKey: string) => Promise<{ id: string } | undefined>) =>
      void starting.run(async () => {
        if (!preview || !key) return;
        const started = await begin(preview, key);
        if (!started) return;
        setTransferId(started.id);
        onStarted(started.id);
      }),
  };
}

export type RemoteTransferFlow<P> = ReturnType<typeof useRemoteTransferFlow<P>>;

/** The source deployment of this computer; choosing another one calls `onChosen` (to drop what was picked in it). */
export function SourceDeploymentField<P>({ id, flow, deployments, onChosen }: { id: string; flow: RemoteTransferFlow<P>; deployments: Deployment[] | null; onChosen: () => void }) {
  return (
    <Field label="Source deployment (this computer)" htmlFor={id}>
      <select
        id={id}
        value={flow.sourceDeploymentId ?? ''}
        onChange={(e) => {
          flow.setSourceDeploymentId(Number(e.target.value));
          onChosen();
        }}
      >
        <NameOptions items={deployments} />
      </select>
    </Field>
  );
}

/** The other profile and its deployment; a new choice calls `onTargetChosen` (to drop the target branch or workbook). */
export function RemoteTargetFields<P>({ idPrefix, flow, profiles, onTargetChosen }: { idPrefix: string; flow: RemoteTransferFlow<P>; profiles: Profile[]; onTargetChosen: () => void }) {
  return (
    <>
      <Field label="To profile" htmlFor={`${idPrefix}-profile`}>
        <select
          id={`${idPrefix}-profile`}
          value={flow.profile ?? ''}
          onChange={(e) => {
            flow.chooseProfile(e.target.value);
            onTargetChosen();
          }}
        >
          {profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name} — {p.baseUrl}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Target deployment (remote)" htmlFor={`${idPrefix}-target-deployment`}>
        <select
          id={`${idPrefix}-target-deployment`}
          value={flow.targetDeploymentId ?? ''}
          onChange={(e) => {
            flow.setTargetDeploymentId(Number(e.target.value));
            onTargetChosen();
          }}
        >
          {flow.targetDeploymentId === null && <option value="">{flow.remoteDeployments.loading ? 'Loading…' : 'Choose…'}</option>}
          <NameOptions items={flow.remoteDeployments.data} />
        </select>
      </Field>
    </>
  );
}

/** A failed preview or start (dismissable), then the started transfer's progress. */
export function TransferState<P>({ flow }: { flow: RemoteTransferFlow<P> }) {
  return (
    <>
      <ProblemBanner
        error={flow.previewing.error ?? flow.starting.error}
        onDismiss={() => {
          flow.previewing.setError(null);
          flow.starting.setError(null);
        }}
      />
      {flow.transferId !== null && <TransferProgress transfer={flow.transfer} error={flow.followError} />}
    </>
  );
}

/** Preview, or "Preview again" once there is one. */
export function PreviewButton<P>({ flow, onClick, disabled }: { flow: RemoteTransferFlow<P>; onClick: () => void; disabled: boolean }) {
  return (
    <div className="form-actions">
      <Button variant={flow.preview ? 'default' : 'primary'} onClick={onClick} busy={flow.previewing.busy} disabled={disabled}>
        {flow.preview ? 'Preview again' : 'Preview'}
      </Button>
    </div>
  );
}

/** What the remote service warned of in its preview, one note each. */
export function PreviewWarnings({ warnings }: { warnings: readonly string[] }) {
  return (
    <>
      {warnings.map((w) => (
        <div key={w} className="promo-note" role="note">
          {w}
        </div>
      ))}
    </>
  );
}
