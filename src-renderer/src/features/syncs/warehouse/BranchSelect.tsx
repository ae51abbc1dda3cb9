import type { Branch } from '../../../../../src-shared/api/data-model';

/** Branches of the model repository, the deploy branch first. */
export function BranchSelect({ id, value, onChange, branches, deployBranch }: { id: string; value: string; onChange: (branch: string) => void; branches: Branch[] | null; deployBranch: string }) {
  const names = branches ? [...branches].sort((a, b) => Number(b.isDeployBranch) - Number(a.isDeployBranch) || a.branchName.localeCompare(b.branchName)) : [];
  const known = names.some((b) => b.branchName === value);
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {!known && <option value={value}>{value === deployBranch ? `${value} (deploy branch)` : value}</option>}
      {names.map((b) => (
        <option key={b.branchName} value={b.branchName}>
          {b.branchName}
          {b.isDeployBranch ? ' (deploy branch)' : b.kind === 'personal' ? ' (dev)' : ''}
        </option>
      ))}
    </select>
  );
}
