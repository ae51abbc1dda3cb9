import { useState } from 'react';
import { createProfile, testProfile, updateProfile, type Profile } from '../../../../src-shared/api/profiles';
import { localApi } from '../../app/session';
import { errorFor, withoutField } from '../../lib/errors';
import { Field, ProblemBanner } from '../../lib/ui';
import { FormDialog } from '../../lib/FormDialog';
import { useAction } from '../../lib/useAction';

type Kind = Profile['credentialKind'];

/**
 * Adds a profile, or edits one (name fixed; a blank credential keeps the stored one). Saving also
 * connects once, so a wrong URL or key shows here rather than in the header later.
 */
export function ProfileDialog({ profile, onClose, onSaved }: { profile: Profile | null; onClose: () => void; onSaved: (profile: Profile, created: boolean) => void }) {
  const [name, setName] = useState(profile?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? 'https://');
  const [kind, setKind] = useState<Kind>(profile?.credentialKind ?? 'api-key');
  const [credential, setCredential] = useState('');
  const [description, setDescription] = useState(profile?.description ?? '');
  const save = useAction(profile ? 'Saving the profile' : 'Adding the profile');
  const [warning, setWarning] = useState<string | null>(null);
  // Once saved (even if its test failed), further saves edit it.
  const [saved, setSaved] = useState<Profile | null>(null);
  const existing = saved ?? profile;

  const submit = async () => {
    const result = await save.run(async () => {
      const stored = existing
        ? await localApi.call(updateProfile, {
            params: { profileName: existing.name },
            body: { baseUrl, credentialKind: kind, description, ...(credential ? { credential } : {}) },
          })
        : await localApi.call(createProfile, { body: { name, baseUrl, credentialKind: kind, credential, description } });
      setSaved(stored);
      return (await localApi.call(testProfile, { params: { profileName: stored.name } })).profile;
    });
    if (!result) return;
    setSaved(result);
    if (result.lastCheck && !result.lastCheck.ok) {
      // Saved, but not reachable as configured: say why, and let the user fix it or keep it.
      setWarning(`Saved, but the connection test failed: ${result.lastCheck.error}`);
      setCredential('');
      return;
    }
    onSaved(result, profile === null);
  };

  const error = save.error;
  return (
    <FormDialog
      title={profile ? `Edit profile ${profile.name}` : 'Add a profile'}
      open
      onClose={onClose}
      formId="profile-form"
      submitLabel={warning ? 'Save and test again' : profile ? 'Save and test' : 'Add and test'}
      busy={save.busy}
      onCancel={saved ? () => onSaved(saved, profile === null) : onClose}
      cancelLabel={saved ? 'Keep it as it is' : 'Cancel'}
      onSubmit={submit}
      validate
      error={null}
    >
      {warning && (
        <div className="notice" role="alert">
          {warning}
        </div>
      )}
      <ProblemBanner error={error && error.fields.length === 0 ? error : null} onDismiss={() => save.setError(null)} />
      <Field label="Name" htmlFor="profile-name" hint="Lowercase letters, digits, - and _. Used in the header and with drydock --profile." error={errorFor(error, 'name')}>
        <input
          id="profile-name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            save.setError(withoutField(error, 'name'));
          }}
          disabled={existing !== null}
          required
          pattern="[a-z0-9][a-z0-9_\-]{0,39}"
          autoComplete="off"
        />
      </Field>
      <Field label="Service URL" htmlFor="profile-url" hint="Your tenant's address, or another drydock serve (http only for 127.0.0.1 or localhost)." error={errorFor(error, 'baseUrl')}>
        <input
          id="profile-url"
          type="url"
          value={baseUrl}
          onChange={(e) => {
            setBaseUrl(e.target.value);
            save.setError(withoutField(error, 'baseUrl'));
          }}
          required
          autoComplete="off"
        />
      </Field>
      <div className="form-row">
        <Field label="Credential type" htmlFor="profile-kind">
          <select id="profile-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            <option value="api-key">API key</option>
            <option value="bearer">Bearer token</option>
          </select>
        </Field>
        <Field
          label={kind === 'bearer' ? 'Token' : 'API key'}
          htmlFor="profile-credential"
          hint={existing ? 'Leave blank to keep the stored one.' : 'Kept in this computer’s keychain; never shown again.'}
          error={errorFor(error, 'credential')}
        >
          <input
            id="profile-credential"
            type="password"
            value={credential}
            onChange={(e) => {
              setCredential(e.target.value);
              save.setError(withoutField(error, 'credential'));
            }}
            required={existing === null}
            autoComplete="off"
          />
        </Field>
      </div>
      <Field label="Description" htmlFor="profile-description" error={errorFor(error, 'description')}>
        <input id="profile-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} autoComplete="off" />
      </Field>
    </FormDialog>
  );
}
