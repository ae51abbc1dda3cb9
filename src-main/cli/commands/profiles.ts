// `drydock profiles` and `drydock logout --profile NAME`: the saved profiles of this data dir.
import type { ConnectionOptions } from '../api/connection';
import { asCliError, openProfiles } from '../api/profiles';
import { CliError, createOutput } from '../output';

export async function listCommand(options: ConnectionOptions): Promise<number> {
  const out = createOutput(Boolean(options.json));
  const opened = await openProfiles(options.dataDir, options.secrets, out.note);
  try {
    const profiles = opened.store.list();
    out.result(profiles.map((p) => ({ ...p, lastCheck: p.lastCheck && { ...p.lastCheck, operationIds: undefined } })));
    if (profiles.length === 0) out.line('No profiles; save one with: drydock login --profile NAME --url URL');
    else {
      out.table(
        profiles.map((p) => ({
          ...p,
          check: p.lastCheck ? `${p.lastCheck.ok ? 'ok' : 'failed'} ${p.lastCheck.checkedAt}` : 'never checked',
        })),
        [
          { key: 'name', title: 'NAME' },
          { key: 'baseUrl', title: 'URL' },
          { key: 'credentialKind', title: 'CREDENTIAL' },
          { key: 'check', title: 'LAST CHECK' },
        ],
      );
    }
    return 0;
  } finally {
    opened.close();
  }
}

export async function logoutCommand(options: ConnectionOptions): Promise<number> {
  const out = createOutput(Boolean(options.json));
  if (!options.profile) throw new CliError('PROFILE_REQUIRED', 'Name the profile to remove: drydock logout --profile NAME.');
  const opened = await openProfiles(options.dataDir, options.secrets, out.note);
  try {
    if (!(await opened.store.remove(options.profile))) throw new CliError('PROFILE_NOT_FOUND', `There is no profile named "${options.profile}".`);
    out.result({ removed: options.profile });
    out.line(`Removed profile ${options.profile} and its credential.`);
    return 0;
  } catch (error) {
    throw asCliError(error);
  } finally {
    opened.close();
  }
}
