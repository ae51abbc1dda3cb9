import { useState } from 'react';
import type { Static } from 'typebox';
import { AccessTestResult, testLakehouseMetricViewAccess } from '../../../../../src-shared/api/lakehouse';
import { api } from '../../../app/session';
import { FailureSummary } from '../../../lib/plain/FailureSummary';
import { plural } from '../../../lib/plural';
import { Button, ProblemBanner } from '../../../lib/ui';
import { useAction } from '../../../lib/useAction';
import type { SettingsForm } from './form';

// The access test of the lakehouse settings: a dry run of what a publication needs (the warehouse,
// the target schema, reading the sources, a temporary view created, replaced and dropped).

type AccessResult = Static<typeof AccessTestResult>;

const CHECK_LABELS: Record<string, string> = {
  warehouse: 'SQL warehouse',
  target_schema: 'Target schema',
  source_read: 'Read source',
  create_view: 'Create temporary view',
  replace_view: 'Replace temporary view',
  drop_view: 'Drop temporary view',
};

export function AccessTestCard({ deploymentId, dataSource, form, hasSettings }: { deploymentId: number; dataSource: string; form: SettingsForm; hasSettings: boolean }) {
  const [result, setResult] = useState<AccessResult | null>(null);
  const { busy, error, setError, run: runAction } = useAction('The access test');
  const catalog = form.targetCatalog.trim();
  const schema = form.targetSchema.trim();
  const run = async () => {
    const tested = await runAction(() =>
      api.call(testLakehouseMetricViewAccess, {
        params: { deploymentId, dataSourceName: dataSource },
        body: { ...(catalog ? { targetCatalog: catalog } : {}), ...(schema ? { targetSchema: schema } : {}) },
      }),
    );
    setResult(tested ?? null);
  };
  return (
    <section className="panel" aria-label="Access test">
      <div className="panel-head">
        <h2>Access test</h2>
        <Button className="btn-small" onClick={() => void run()} busy={busy} disabled={!hasSettings && (!catalog || !schema)}>
          Test access
        </Button>
      </div>
      <p className="muted sy-card-text">
        Creates, replaces and drops a temporary view in <code>{catalog && schema ? `${catalog}.${schema}` : 'the target schema'}</code>, and reads the sources. Published views are not touched.
      </p>
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
      {result && (
        <>
          <div className={`sy-access-summary ${result.ok ? 'ok' : 'bad'}`} role="status">
            {result.ok ? 'All checks passed' : `${plural(result.checks.filter((c) => c.status === 'failed').length, 'check')} failed`}
          </div>
          <ul className="sy-checks" aria-label="Access checks">
            {result.checks.map((c, i) => (
              <li key={`${c.name}-${i}`} className={`sy-check sy-check-${c.status}`}>
                <span className="sy-check-icon" aria-hidden="true">
                  {c.status === 'passed' ? '✓' : c.status === 'failed' ? '✕' : '–'}
                </span>
                <div className="sy-check-text">
                  <div>
                    <span className="strong">{CHECK_LABELS[c.name] ?? c.name}</span> <span className="sr-only">{c.status}</span>
                    {c.subject && <code className="sy-check-subject">{c.subject}</code>}
                  </div>
                  {c.message && (
                    <div className="sy-check-message">
                      {c.errorCode ? <FailureSummary error={{ code: c.errorCode, message: c.message }} /> : c.message}
                    </div>
                  )}
                </div>
              </li>
            ))}
          </ul>
          <div className="field-hint">
            Temporary view <code className="sy-break">{result.temporaryViewName}</code>
          </div>
        </>
      )}
    </section>
  );
}
