import type { ComparisonOutcome, ComparisonPlan } from '../../../../../src-shared/model/query';
import { DataTable } from '../../../lib/DataTable';
import { plural } from '../../../lib/plural';

type Comparison = { plan: ComparisonPlan; outcome: ComparisonOutcome; viewName: string } | { problem: string };

const keyText = (key: Record<string, string>) =>
  Object.entries(key)
    .map(([member, value]) => `${member.slice(member.indexOf('.') + 1)} = ${value}`)
    .join(', ') || '(all rows)';

/** Whether the vendor's answer has the model query's numbers, and where it does not. */
export function ComparisonReport({ comparison }: { comparison: Comparison }) {
  if ('problem' in comparison) {
    return (
      <div className="comparison warn" role="status" aria-label="Comparison with the model">
        <strong>Cannot compare.</strong> {comparison.problem}
      </div>
    );
  }
  const { outcome, plan, viewName } = comparison;
  return (
    <div className={`comparison ${outcome.matches ? 'ok' : 'bad'}`} role="status" aria-label="Comparison with the model">
      {outcome.matches ? (
        <>
          <strong>✓ The numbers match.</strong> All {plural(outcome.vendorRows, 'row')} equal the model query over view {viewName}
          {plan.vendorLimited ? ' (the statement has a LIMIT: only its rows were compared)' : ''}.
        </>
      ) : (
        <>
          <strong>✗ The numbers differ.</strong> {outcome.matchingRows.toLocaleString()} of {plural(outcome.vendorRows, 'row')} match the model query over view {viewName};{' '}
          {outcome.differingRows.toLocaleString()} differ, {outcome.onlyInVendorCount.toLocaleString()} only in this answer, {outcome.onlyInModelCount.toLocaleString()} only in the model&apos;s.
          {outcome.differences.length > 0 && (
            <DataTable
              plain
              label="Differences"
              className="comparison-table"
              rows={outcome.differences}
              rowKey={(_, i) => i}
              columns={[
                { header: 'Row', cell: (d) => keyText(d.key) },
                { header: 'Column', cell: (d) => d.column },
                { header: 'This answer', cellClassName: 'num', cell: (d) => d.vendor ?? '∅' },
                { header: 'Model', cellClassName: 'num', cell: (d) => d.model ?? '∅' },
              ]}
            />
          )}
          {outcome.onlyInVendor.length > 0 && <div className="small">Only in this answer: {outcome.onlyInVendor.map(keyText).join('; ')}</div>}
          {outcome.onlyInModel.length > 0 && <div className="small">Only in the model: {outcome.onlyInModel.map(keyText).join('; ')}</div>}
        </>
      )}
      <details>
        <summary className="small">The model query compared</summary>
        <pre aria-label="Model query">{JSON.stringify(plan.query, null, 2)}</pre>
      </details>
    </div>
  );
}
