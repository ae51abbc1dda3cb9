import { useState } from 'react';
import { deleteProfile, listProfiles, testProfile, type Profile } from '../../../../src-shared/api/profiles';
import { useProfile } from '../../app/profile';
import { localApi } from '../../app/session';
import { ConfirmDialog } from '../../lib/confirm';
import { DataTable } from '../../lib/DataTable';
import { Badge, Button, EmptyState, Notice, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useRowAction } from '../../lib/useAction';
import { useQuery } from '../../lib/useQuery';
import { ProfileDialog } from './ProfileDialog';
import './profiles.css';

/**
 * `/profiles`: other Drydock services or platform tenants this app can switch to, promote to and
 * publish to. Always about the local service (it holds the profiles and their credentials).
 */
export default function ProfilesScreen() {
  const profiles = useQuery((signal) => localApi.call(listProfiles, { query: { first: 1000 }, signal }), [], 'Loading profiles');
  const [editing, setEditing] = useState<Profile | 'new' | null>(null);
  const [removing, setRemoving] = useState<Profile | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const active = useProfile((s) => s.active);
  const select = useProfile((s) => s.select);
  const refreshHeader = useProfile((s) => s.load);

  const changed = (message: string) => {
    setNotice(message);
    profiles.reload();
    void refreshHeader();
  };
  const forbidden = profiles.error?.status === 403;
  const test = useRowAction('Testing the profile');

  return (
    <section className="page" aria-label="Profiles">
      <header className="page-head">
        <div>
          <h1>Profiles {profiles.data && <span className="count">{profiles.data.items.length}</span>}</h1>
          <p className="muted">
            Other Drydock services or platform tenants. Pick one in the header to work on it with every screen; promote workbooks and publish models to it from Promotions. Credentials stay
            in this computer’s keychain.
          </p>
        </div>
        {!forbidden && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            Add profile
          </Button>
        )}
      </header>
      <Notice text={notice} />
      {forbidden ? (
        <EmptyState title="Profiles are for admins">They hold credentials to other services; ask an admin of this Drydock to add one.</EmptyState>
      ) : (
        <ProblemBanner error={profiles.error} />
      )}
      {!profiles.data ? (
        profiles.loading && <Spinner label="Loading profiles…" />
      ) : profiles.data.items.length === 0 ? (
        <EmptyState title="No profiles yet">
          Add the URL of another Drydock (<code>drydock serve</code>) or of your platform tenant, with an API key.
        </EmptyState>
      ) : (
        <DataTable
          label="Profiles"
          rows={profiles.data.items}
          rowKey={(p) => p.name}
          rowDetail={{
            render: (p) => {
              const error = test.errorOf(p.name);
              return error && <ProblemBanner error={error} onDismiss={() => test.setError(p.name, null)} />;
            },
          }}
          columns={[
            {
              header: 'Name',
              cell: (p) => (
                <>
                  <span className="strong">{p.name}</span> {p.name === active && <Badge tone="info">in use</Badge>}
                  {p.description && <div className="muted">{p.description}</div>}
                </>
              ),
            },
            { header: 'Service', cell: (p) => <code>{p.baseUrl}</code> },
            {
              header: 'Credential',
              cell: (p) => (
                <>
                  {p.credentialKind === 'bearer' ? 'Bearer token' : 'API key'}
                  {!p.hasCredential && (
                    <>
                      {' '}
                      <Badge tone="bad">missing from keychain</Badge>
                    </>
                  )}
                </>
              ),
            },
            { header: 'Last test', cell: (p) => <LastCheck profile={p} /> },
            {
              header: '',
              label: 'Actions',
              className: 'actions-col profile-actions',
              cell: (p) => (
                <>
                  <Button
                    className="btn-small"
                    busy={test.isBusy(p.name)}
                    aria-label={`Test ${p.name}`}
                    onClick={() =>
                      void test.run(p.name, async () => {
                        const { profile: updated } = await localApi.call(testProfile, { params: { profileName: p.name } });
                        profiles.reload();
                        setNotice(updated.lastCheck?.ok ? `${p.name}: connected (interface version ${updated.lastCheck.specVersion ?? 'unknown'}).` : `${p.name}: the test failed.`);
                      }, `Testing ${p.name}`)
                    }
                  >
                    Test
                  </Button>
                  <Button className="btn-small" onClick={() => void select(p.name)} disabled={p.name === active} aria-label={`Use ${p.name}`}>
                    Use
                  </Button>
                  <Button className="btn-small" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
                    Edit
                  </Button>
                  <Button variant="ghost" className="btn-small danger-text" onClick={() => setRemoving(p)} aria-label={`Remove ${p.name}`}>
                    Remove
                  </Button>
                </>
              ),
            },
          ]}
        />
      )}
      {editing !== null && (
        <ProfileDialog
          profile={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            changed(created ? `Profile ${saved.name} added.` : `Profile ${saved.name} saved.`);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove profile ${removing?.name ?? ''}?`}
        confirmLabel="Remove profile"
        action="Removing the profile"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          if (active === removing.name) await select('local');
          await localApi.call(deleteProfile, { params: { profileName: removing.name } });
          const name = removing.name;
          setRemoving(null);
          changed(`Profile ${name} removed; its credential was deleted from the keychain.`);
        }}
      >
        The profile and its credential in the keychain are deleted. Its promotions and publishes stay in the history. Nothing changes on {removing?.baseUrl}.
      </ConfirmDialog>
    </section>
  );
}

/** What the last connection test read, or why it failed. */
function LastCheck({ profile: p }: { profile: Profile }) {
  const check = p.lastCheck;
  return (
    <span aria-label={`Last test of ${p.name}`}>
      {!check ? (
        <span className="muted">never tested</span>
      ) : check.ok ? (
        <>
          <Badge tone="good">connected</Badge> API {check.specVersion ?? '?'} · {check.operationIds.length} operations · <Time value={check.checkedAt} />
        </>
      ) : (
        <>
          <Badge tone="bad">failed</Badge> <Time value={check.checkedAt} />
          <div className="profile-check-error">{check.error}</div>
        </>
      )}
    </span>
  );
}
