import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import type { ResponseOf } from '../../../../src-shared/api/contract';
import {
  createEnvironmentToken,
  createEnvironmentTokenForMetaSync,
  ENVIRONMENT_TOKEN_MAX_SECONDS,
  ENVIRONMENT_TOKEN_SCOPES,
  listEnvironments,
  listEnvironmentTokens,
  SQL_RUNNER_NO_DDL_SCOPE,
  type Environment,
} from '../../../../src-shared/api/environments';
import { api } from '../../app/session';
import { errorFor, withoutField } from '../../lib/errors';
import { DataTable, ListState, SelectLink } from '../../lib/DataTable';
import { fetchAllPages } from '../../lib/paging';
import { OneTimeSecret } from '../../lib/secret';
import { Badge, Button, EmptyState, Field, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';
import { describeSeconds, droppedKeyReason, droppedScopeReason, parseSecurityContext, requestedScopes } from './tokens';

const CodeEditor = lazy(() => import('../../lib/editor/CodeEditor'));

const KIND_TONES = { production: 'good', staging: 'info', development: 'neutral' } as const;
const SCOPE_HINTS: Record<(typeof ENVIRONMENT_TOKEN_SCOPES)[number], string> = {
  meta: 'Read the data model’s metadata',
  'sql-runner': 'Run SQL (needs SQL Runner read access)',
};
const LIFETIMES = [300, 900, 1800, ENVIRONMENT_TOKEN_MAX_SECONDS];

type Minted = { purpose: 'data' | 'meta-sync'; environment: Environment; requested: string[]; token: ResponseOf<typeof createEnvironmentToken>['data'] };

export function EnvironmentsTab({ deploymentId, ddlEnabled }: { deploymentId: number; ddlEnabled: boolean }) {
  const environments = useQuery(
    (signal) => fetchAllPages((after) => api.call(listEnvironments, { params: { deploymentId }, query: { first: 500, ...(after ? { after } : {}) }, signal })),
    [deploymentId],
    'Loading environments',
  );
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [minted, setMinted] = useState<Minted | null>(null);
  const [tokensGeneration, setTokensGeneration] = useState(0);
  const list = environments.data ?? [];
  const selected = list.find((e) => e.id === selectedId) ?? list.find((e) => e.kind === 'production') ?? list[0] ?? null;

  return (
    <div className="split">
      <div className="detail-stack">
        <section className="panel" aria-label="Environments">
          <div className="panel-head">
            <h2>
              Environments {environments.data && <span className="count">{list.length}</span>}
            </h2>
            <Button className="btn-small" onClick={environments.reload} busy={environments.loading && environments.data !== null}>
              Refresh
            </Button>
          </div>
          <ProblemBanner error={environments.error} />
          <ListState rows={environments.data ? list : null} loading={environments.loading} empty={<EmptyState title="No environments" />}>
            {(rows) => (
              <DataTable
                label="Environment list"
                className="table-hover"
                rows={rows}
                rowKey={(env) => env.id}
                selection={{ isSelected: (env) => selected?.id === env.id, onSelect: (env) => setSelectedId(env.id) }}
                columns={[
                  { header: 'Name', cell: (env) => <SelectLink onSelect={() => setSelectedId(env.id)}>{env.name}</SelectLink> },
                  { header: 'Kind', cell: (env) => <Badge tone={KIND_TONES[env.kind]}>{env.kind}</Badge> },
                  { header: 'Branch', cell: (env) => <code>{env.branchName}</code> },
                  { header: 'Created', priority: 1, cell: (env) => <Time value={env.createdAt} /> },
                ]}
              />
            )}
          </ListState>
        </section>
        {minted && <MintedReport minted={minted} onDismiss={() => setMinted(null)} />}
        {selected && <TokenList deploymentId={deploymentId} environment={selected} generation={tokensGeneration} />}
      </div>
      <div className="detail-stack">
        {selected && (
          <MintPanel
            key={selected.id}
            deploymentId={deploymentId}
            environment={selected}
            ddlEnabled={ddlEnabled}
            onMinted={(m) => {
              setMinted(m);
              setTokensGeneration((g) => g + 1);
            }}
          />
        )}
      </div>
    </div>
  );
}

function MintPanel({ deploymentId, environment, ddlEnabled, onMinted }: { deploymentId: number; environment: Environment; ddlEnabled: boolean; onMinted: (m: Minted) => void }) {
  const [purpose, setPurpose] = useState<'data' | 'meta-sync'>('data');
  const [ticked, setTicked] = useState<Set<string>>(new Set(['meta']));
  const [extra, setExtra] = useState('');
  const [lifetime, setLifetime] = useState(ENVIRONMENT_TOKEN_MAX_SECONDS);
  const [contextText, setContextText] = useState('{\n  "tenant_id": 42\n}\n');
  const { busy, error, setError, run } = useAction(`Minting a token for ${environment.name}`);
  const parsed = useMemo(() => parseSecurityContext(contextText), [contextText]);
  const scopes = requestedScopes(ticked, extra);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ('error' in parsed) return;
    const body = { scopes, security_context: parsed.value, expires_in: lifetime };
    const params = { deploymentId, environmentId: environment.id };
    const token = await run(async () =>
      purpose === 'data'
        ? (await api.call(createEnvironmentToken, { params, body })).data
        : // Meta-sync answers without an id or dropped lists: derive the dropped ones from what was asked.
          await api.call(createEnvironmentTokenForMetaSync, { params, body }).then(({ data }) => ({
            ...data,
            id: 0,
            dropped_scopes: scopes.filter((s) => !data.scopes.includes(s)),
            dropped_security_context_keys: Object.keys(parsed.value).filter((k) => !(k in data.security_context)),
          })),
    );
    if (token) onMinted({ purpose, environment, requested: scopes, token });
  };

  const toggle = (scope: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(scope);
    else next.delete(scope);
    setTicked(next);
    setError(withoutField(error, 'scopes'));
  };
  const contextError = errorFor(error, 'security_context') ?? ('error' in parsed ? parsed.error : null);

  return (
    <form className="panel form mint-form" onSubmit={submit} noValidate aria-label="Mint environment token">
      <div className="panel-head">
        <h2>
          Mint a token for <span className="accent-text">{environment.name}</span>
        </h2>
      </div>
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
      <div className="segmented" role="radiogroup" aria-label="Token purpose">
        <label className={purpose === 'data' ? 'active' : ''}>
          <input type="radio" name="token-purpose" checked={purpose === 'data'} onChange={() => setPurpose('data')} />
          Data API token
        </label>
        <label className={purpose === 'meta-sync' ? 'active' : ''}>
          <input type="radio" name="token-purpose" checked={purpose === 'meta-sync'} onChange={() => setPurpose('meta-sync')} />
          Meta sync token
        </label>
      </div>
      <fieldset className={`subform ${errorFor(error, 'scopes') ? 'field-invalid' : ''}`}>
        <legend>Scopes</legend>
        <div className="scope-checks">
          {ENVIRONMENT_TOKEN_SCOPES.map((scope) => (
            <label key={scope} className="check" title={SCOPE_HINTS[scope]}>
              <input type="checkbox" checked={ticked.has(scope) || (purpose === 'meta-sync' && scope === 'meta')} disabled={purpose === 'meta-sync' && scope === 'meta'} onChange={(e) => toggle(scope, e.target.checked)} />
              <code>{scope}</code>
              <span className="muted small">{SCOPE_HINTS[scope]}</span>
            </label>
          ))}
        </div>
        <Field label="Other scopes to request" htmlFor="token-extra-scopes" error={errorFor(error, 'scopes')} hint="Anything outside the allowlist is dropped by the service; the result says what and why.">
          <input id="token-extra-scopes" value={extra} onChange={(e) => setExtra(e.target.value)} placeholder="e.g. dev-token" spellCheck={false} autoComplete="off" />
        </Field>
        {!ddlEnabled && ticked.has('sql-runner') && (
          <div className="field-hint">
            DDL is disabled for this deployment: the service adds <code>{SQL_RUNNER_NO_DDL_SCOPE}</code>.
          </div>
        )}
        {purpose === 'meta-sync' && <div className="field-hint">Meta sync tokens always carry <code>meta</code>.</div>}
      </fieldset>
      <div className="field">
        <span className="field-label">security_context</span>
        <div className={`json-editor ${contextError ? 'invalid' : ''}`} data-testid="security-context-editor">
          <Suspense fallback={<Spinner label="Loading the editor…" />}>
            <CodeEditor value={contextText} onChange={setContextText} language="json" path={`deployments/${deploymentId}/environments/${environment.id}/security-context.json`} height={96} ariaLabel="security_context JSON" />
          </Suspense>
        </div>
        <div className={contextError ? 'field-error' : 'field-hint'}>
          {contextError ?? 'Claims the data API evaluates access policies with. Keys scope, scopes and dev-token are never signed.'}
        </div>
      </div>
      <div className="mint-footer">
        <label className="inline-field" htmlFor="token-lifetime">
          Lifetime
          <select id="token-lifetime" value={lifetime} onChange={(e) => setLifetime(Number(e.target.value))}>
            {LIFETIMES.map((s) => (
              <option key={s} value={s}>
                {describeSeconds(s)}
                {s === ENVIRONMENT_TOKEN_MAX_SECONDS ? ' (maximum)' : ''}
              </option>
            ))}
          </select>
        </label>
        <code className="small muted request-preview" title="What the form sends">
          POST …/{purpose === 'data' ? 'tokens' : 'tokens-for-meta-sync'} · scopes [{scopes.join(', ')}]
        </code>
        <Button type="submit" variant="primary" busy={busy} disabled={'error' in parsed}>
          Mint token
        </Button>
      </div>
      {errorFor(error, 'expires_in') && <div className="field-error">{errorFor(error, 'expires_in')}</div>}
    </form>
  );
}

function MintedReport({ minted, onDismiss }: { minted: Minted; onDismiss: () => void }) {
  const { token } = minted;
  const droppedAnything = token.dropped_scopes.length + token.dropped_security_context_keys.length > 0;
  return (
    <section className="panel minted" aria-label="Minted token">
      <div className="panel-head">
        <h2>
          {minted.purpose === 'data' ? `Token ${token.id}` : 'Meta sync token'} for {minted.environment.name}
        </h2>
        <button type="button" className="icon-button" aria-label="Dismiss the token" onClick={onDismiss}>
          ×
        </button>
      </div>
      <OneTimeSecret id="environment-token" label="Token (JWT)" value={token.token}>
        Only what it was signed with is kept; the token itself is not stored. Expires <Time value={token.expires_at} /> ({new Date(token.expires_at).toISOString().slice(11, 19)} UTC).
      </OneTimeSecret>
      <h3 className="subhead section-gap">Signed</h3>
      <dl className="facts">
        <dt>Scopes</dt>
        <dd aria-label="Signed scopes">
          {token.scopes.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            token.scopes.map((s) => (
              <Badge key={s} tone="good">
                {s}
              </Badge>
            ))
          )}
        </dd>
        <dt>security_context</dt>
        <dd>
          <pre className="json-block" aria-label="Signed security context">
            {JSON.stringify(token.security_context, null, 2)}
          </pre>
        </dd>
        <dt>Valid</dt>
        <dd>
          <Time value={token.created_at} /> → <Time value={token.expires_at} />
        </dd>
      </dl>
      <h3 className="subhead section-gap">Dropped</h3>
      {!droppedAnything ? (
        <p className="muted small no-margin">Nothing: every requested scope and key was signed.</p>
      ) : (
        <ul className="dropped-list" aria-label="Dropped">
          {token.dropped_scopes.map((s) => (
            <li key={`scope-${s}`}>
              <Badge tone="bad">{s}</Badge> <span className="muted">scope — {droppedScopeReason(s)}</span>
            </li>
          ))}
          {token.dropped_security_context_keys.map((k) => (
            <li key={`key-${k}`}>
              <Badge tone="bad">{k}</Badge> <span className="muted">security_context key — {droppedKeyReason(k)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TokenList({ deploymentId, environment, generation }: { deploymentId: number; environment: Environment; generation: number }) {
  const tokens = useQuery(
    (signal) => api.call(listEnvironmentTokens, { params: { deploymentId, environmentId: environment.id }, query: { first: 50 }, signal }),
    [deploymentId, environment.id, generation],
    'Loading tokens',
  );
  return (
    <section className="panel" aria-label="Your live tokens">
      <div className="panel-head">
        <h2>
          Your live tokens for {environment.name} {tokens.data && <span className="count">{tokens.data.items.length}{tokens.data.pageInfo.hasNextPage ? '+' : ''}</span>}
        </h2>
        <Button className="btn-small" onClick={tokens.reload} busy={tokens.loading && tokens.data !== null}>
          Refresh
        </Button>
      </div>
      <ProblemBanner error={tokens.error} />
      <ListState
        rows={tokens.data?.items}
        loading={tokens.loading}
        empty={<p className="muted no-margin">None. Tokens you mint appear here (never the token itself) until they expire.</p>}
      >
        {(rows) => (
          <DataTable
            label="Live tokens"
            rows={rows}
            rowKey={(t) => t.id}
            columns={[
              { header: 'ID', className: 'num', cellClassName: 'muted', cell: (t) => t.id },
              { header: 'Purpose', cell: (t) => t.purpose },
              {
                header: 'Scopes',
                className: 'wrap-cell',
                cell: (t) => (
                  <span className="badges">
                    {t.scopes.map((s) => (
                      <Badge key={s}>{s}</Badge>
                    ))}
                  </span>
                ),
              },
              { header: 'Context keys', className: 'wrap-cell', cellClassName: 'small', cell: (t) => Object.keys(t.security_context).join(', ') || <span className="muted">—</span> },
              { header: 'Expires', priority: 1, cell: (t) => <Time value={t.expires_at} /> },
            ]}
          />
        )}
      </ListState>
    </section>
  );
}
