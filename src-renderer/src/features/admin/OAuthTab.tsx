import { useEffect, useState } from 'react';
import {
  createOAuthIntegration,
  deleteOAuthIntegration,
  deleteUserOAuthToken,
  initiateUserOAuth,
  listOAuthIntegrations,
  listUserOAuthTokens,
  refreshUserOAuth,
  type OAuthIntegration,
  type UserOAuthToken,
} from '../../../../src-shared/api/oauth';
import { api, useSession } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { DataTable, ListState } from '../../lib/DataTable';
import { errorFor, withoutField } from '../../lib/errors';
import { Badge, Button, EmptyState, Field, Notice, ProblemBanner, Time } from '../../lib/ui';
import { FormDialog } from '../../lib/FormDialog';
import { useAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';

interface Row {
  integration: OAuthIntegration;
  token: UserOAuthToken | undefined;
}

/**
 * OAuth integrations (admin) and the signed-in user's connections to them. Connect starts the
 * authorization in the browser (the provider's page opens outside the app, through the checked
 * external-link path); the service's callback stores the tokens in the keychain, and the list
 * reloads when the window gets the focus back.
 */
export function OAuthTab() {
  const user = useSession((s) => s.user);
  const integrations = useQuery((signal) => api.call(listOAuthIntegrations, { query: { first: 500 }, signal }), [], 'Loading OAuth integrations');
  const tokens = useQuery((signal) => api.call(listUserOAuthTokens, { query: { first: 500 }, signal }), [], 'Loading your OAuth connections');
  const [notice, setNotice] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<OAuthIntegration | null>(null);
  const [disconnecting, setDisconnecting] = useState<Row | null>(null);
  const action = useAction('Connecting');
  const reloadTokens = tokens.reload;

  // Back from the provider's page in the browser: show what the callback stored.
  useEffect(() => {
    window.addEventListener('focus', reloadTokens);
    return () => window.removeEventListener('focus', reloadTokens);
  }, [reloadTokens]);

  const byIntegration = new Map((tokens.data?.items ?? []).map((t) => [t.integrationId, t]));
  const rows: Row[] | null = integrations.data ? integrations.data.items.map((i) => ({ integration: i, token: byIntegration.get(i.id) })) : null;

  const connect = async (row: Row) => {
    const started = await action.run(() => api.call(initiateUserOAuth, { params: { integrationId: row.integration.id } }), `Connecting to ${row.integration.name}`);
    if (!started) return;
    window.open(started.authorizationUrl, '_blank', 'noopener,noreferrer');
    setNotice(`Finish connecting to “${row.integration.name}” in your browser; this list updates when you come back.`);
  };
  const refresh = async (row: Row) => {
    const done = await action.run(() => api.call(refreshUserOAuth, { params: { integrationId: row.integration.id } }), `Refreshing ${row.integration.name}`);
    if (done) {
      setNotice(`Access to “${row.integration.name}” refreshed.`);
      tokens.reload();
    }
  };

  return (
    <section aria-label="OAuth">
      <div className="toolbar">
        <span className="muted toolbar-note">
          Connect your account at a provider: Drydock keeps the tokens in the system keychain, never in its database, and renews them when they expire.
        </span>
        <Button
          onClick={() => {
            integrations.reload();
            tokens.reload();
          }}
          busy={integrations.loading || tokens.loading}
        >
          Refresh
        </Button>
        {user?.role === 'admin' && (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New integration
          </Button>
        )}
      </div>
      <Notice text={notice} />
      <ProblemBanner error={integrations.error ?? tokens.error} />
      <ProblemBanner error={action.error} onDismiss={() => action.setError(null)} />
      <ListState
        rows={rows}
        loading={integrations.loading}
        loadingLabel="Loading OAuth integrations…"
        empty={<EmptyState title="No OAuth integrations">An admin adds one with the provider’s client id, secret and endpoints.</EmptyState>}
      >
        {(list) => (
          <DataTable
            label="OAuth integrations"
            rows={list}
            rowKey={(r) => r.integration.id}
            columns={[
              { header: 'Integration', cell: (r) => r.integration.name, cellClassName: 'strong' },
              { header: 'Provider', priority: 2, cell: (r) => r.integration.provider },
              { header: 'Scopes', cell: (r) => (r.integration.scopes.length ? r.integration.scopes.join(' ') : <span className="muted">none</span>) },
              {
                header: 'Your connection',
                cell: (r) =>
                  r.token ? (
                    <Badge tone="good">connected</Badge>
                  ) : (
                    <Badge tone="neutral">not connected</Badge>
                  ),
              },
              { header: 'Expires', priority: 1, cell: (r) => (r.token?.expiresAt ? <Time value={r.token.expiresAt} /> : <span className="muted">—</span>) },
            ]}
            actions={[
              { label: (r) => (r.token ? 'Reconnect' : 'Connect'), ariaLabel: (r) => `Connect ${r.integration.name}`, onClick: (r) => void connect(r) },
              { label: 'Renew', ariaLabel: (r) => `Renew access to ${r.integration.name}`, onClick: (r) => void refresh(r), hidden: (r) => !r.token?.hasRefreshToken },
              { label: 'Disconnect', ariaLabel: (r) => `Disconnect ${r.integration.name}`, onClick: setDisconnecting, hidden: (r) => !r.token, danger: true },
              { label: 'Delete', ariaLabel: (r) => `Delete integration ${r.integration.name}`, onClick: (r) => setDeleting(r.integration), hidden: () => user?.role !== 'admin', danger: true },
            ]}
          />
        )}
      </ListState>
      <NewIntegrationDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(created) => {
          setNotice(`Integration “${created.name}” created; register ${created.redirectUri} as its redirect URI at the provider.`);
          integrations.reload();
        }}
      />
      <ConfirmDialog
        open={disconnecting !== null}
        title={`Disconnect “${disconnecting?.integration.name ?? ''}”?`}
        confirmLabel="Disconnect"
        action="Disconnecting"
        onClose={() => setDisconnecting(null)}
        onConfirm={async () => {
          if (!disconnecting) return;
          await api.call(deleteUserOAuthToken, { params: { integrationId: disconnecting.integration.id } });
          setNotice(`Disconnected from “${disconnecting.integration.name}”; its tokens were removed from the keychain.`);
          tokens.reload();
        }}
      >
        <p>Your access and refresh tokens for this integration are deleted from the keychain. Connect again to use it.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete integration “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete integration"
        action="Deleting the integration"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.call(deleteOAuthIntegration, { params: { id: deleting.id } });
          setNotice(`Integration “${deleting.name}” deleted, with its client secret and every user’s tokens.`);
          integrations.reload();
          tokens.reload();
        }}
      >
        <p>Its client secret and every user’s tokens for it are removed from the keychain. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

const EMPTY = { name: '', provider: 'custom', clientId: '', clientSecret: '', authorizationUrl: '', tokenUrl: '', redirectUri: '', scopes: '' };

function NewIntegrationDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (created: OAuthIntegration) => void }) {
  const [form, setForm] = useState(EMPTY);
  const { busy, error, setError, run } = useAction('Creating the OAuth integration');

  useEffect(() => {
    if (open) {
      setForm(EMPTY);
      setError(null);
    }
  }, [open, setError]);

  const submit = async () => {
    const { redirectUri, scopes, ...rest } = form;
    const created = await run(() =>
      api.call(createOAuthIntegration, {
        body: { ...rest, ...(redirectUri.trim() ? { redirectUri: redirectUri.trim() } : {}), scopes: scopes.split(/\s+/).filter(Boolean) },
      }),
    );
    if (created) {
      onCreated(created);
      onClose();
    }
  };

  const field = (key: keyof typeof EMPTY, label: string, hint?: string, type = 'text') => (
    <Field label={label} htmlFor={`oauth-${key}`} error={errorFor(error, key)} hint={hint}>
      <input
        id={`oauth-${key}`}
        type={type}
        value={form[key]}
        onChange={(e) => {
          setForm({ ...form, [key]: e.target.value });
          setError(withoutField(error, key));
        }}
        autoComplete="off"
      />
    </Field>
  );

  return (
    <FormDialog
      title="New OAuth integration"
      open={open}
      onClose={onClose}
      formId="oauth-integration-form"
      formLabel="New OAuth integration"
      submitLabel="Create integration"
      busy={busy}
      onSubmit={submit}
      error={error}
    >
      {field('name', 'Name')}
      {field('provider', 'Provider', 'e.g. github, google, salesforce, custom')}
      {field('clientId', 'Client id')}
      {field('clientSecret', 'Client secret', 'Stored in the system keychain; never shown again.', 'password')}
      {field('authorizationUrl', 'Authorization URL')}
      {field('tokenUrl', 'Token URL')}
      {field('redirectUri', 'Redirect URI', 'Leave empty for this service’s own callback (shown after creating).')}
      {field('scopes', 'Scopes', 'Separated by spaces.')}
    </FormDialog>
  );
}
