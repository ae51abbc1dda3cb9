// `drydock login --profile NAME --url URL`: checks a credential against a service and saves it as a profile.
import type { ConnectionOptions } from '../api/connection';
import { CliError } from '../output';

export default async function login(_options: ConnectionOptions & { default?: boolean }): Promise<number> {
  throw new CliError('PROFILES_UNAVAILABLE', 'Saved profiles are not available yet: pass --url and --key (or DRYDOCK_URL and DRYDOCK_API_KEY) to each command.');
}
