// The Models context bar (issue 24): one compact row saying where the work happens — service ›
// deployment › branch, dev mode, the team repository's ↑/↓ — and the branch's actions at its end.
import type { Branch } from '../../../../../src-shared/api/data-model';
import { ProfileSwitcher } from '../../../app/ProfileSwitcher';
import { Button } from '../../../lib/ui';
import type { BranchOperation } from '../BranchOperationDialog';
import { ModelsIcon } from '../icons';
import { UpstreamControl } from '../upstream/UpstreamControl';
import { branchLabel, MergeMenu } from './BranchMenus';

export interface ContextBarProps {
  deploymentId: number;
  deployments: { id: number; name: string }[];
  branches: Branch[];
  branch: Branch | undefined;
  branchName: string | null;
  myId: number | undefined;
  devBranch: Branch | undefined;
  deployBranch: string;
  editable: boolean;
  canCommit: boolean;
  busy: string | null;
  validating: boolean;
  onDeployment(id: number): void;
  onBranch(name: string): void;
  onDevMode(): void;
  onValidate(): void;
  onOperation(operation: BranchOperation): void;
}

const Chevron = () => (
  <span className="ctx-sep" aria-hidden="true">
    ›
  </span>
);

export function ContextBar(p: ContextBarProps) {
  const { branch } = p;
  return (
    <header className="wb-context" aria-label="Models context">
      <h1 className="wb-title">Models</h1>
      <ProfileSwitcher variant="inline" />
      <Chevron />
      <select
        className="ctx-select ctx-deployment"
        aria-label="Deployment"
        value={p.deploymentId}
        onChange={(e) => p.onDeployment(Number(e.target.value))}
        title={`Deployment ${p.deployments.find((d) => d.id === p.deploymentId)?.name ?? ''} (#${p.deploymentId})`}
      >
        {p.deployments.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </select>
      <Chevron />
      <span className="ctx-branch" title={branch ? `Branch ${branch.branchName}${branch.parentBranch ? `, forked from ${branch.parentBranch}` : ''} · head ${branch.headCommit.slice(0, 7)}` : 'Branch'}>
        <ModelsIcon name="branch" size={13} />
        <select className="ctx-select" aria-label="Branch" value={p.branchName ?? ''} onChange={(e) => p.onBranch(e.target.value)} disabled={p.branches.length === 0}>
          {p.branches.map((b) => (
            <option key={b.branchName} value={b.branchName}>
              {branchLabel(b, p.myId)}
            </option>
          ))}
        </select>
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={p.devBranch !== undefined}
        className={`devmode ${p.devBranch ? 'on' : ''}`}
        onClick={p.onDevMode}
        disabled={p.busy !== null || p.branches.length === 0}
        title={p.devBranch ? `Leave dev mode (${p.devBranch.branchName} keeps its edits)` : 'Edit files on your personal dev branch'}
      >
        <span className="devmode-track" aria-hidden="true">
          <span className="devmode-thumb" />
        </span>
        Dev<span className="ctx-word"> mode</span>
      </button>
      <UpstreamControl deploymentId={p.deploymentId} branch={branch} />
      <span className="ctx-grow" />
      {p.busy && (
        <span className="muted busy-label" role="status" title={p.busy}>
          <span className="spinner" aria-hidden="true" /> <span className="busy-text">{p.busy}</span>
        </span>
      )}
      <span className="ctx-actions">
        <Button className="btn-small" busy={p.validating} onClick={p.onValidate} disabled={!branch} title="Compile the saved files of this branch on the service, as a deploy would">
          Validate
        </Button>
        {branch?.parentBranch && (
          <Button className="btn-small" onClick={() => p.onOperation('pull')} title={`Bring new commits of ${branch.parentBranch} into ${branch.branchName}`}>
            Pull
          </Button>
        )}
        {branch && !branch.isDeployBranch && <MergeMenu branch={branch} deployBranch={p.deployBranch} onPick={p.onOperation} />}
        {p.editable && (
          <Button className="btn-small" variant="primary" onClick={() => p.onOperation('commit')} disabled={!p.canCommit}>
            Commit…
          </Button>
        )}
      </span>
    </header>
  );
}
