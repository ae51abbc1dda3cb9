// Remote profiles, shared by the service's profiles area and the `drydock` CLI (see store.ts).
export {
  ProfileStore,
  ProfileError,
  credentialKey,
  authorizationFor,
  normalizeBaseUrl,
  validateProfileName,
  LOCAL_PROFILE_NAME,
  PROFILE_NAME_PATTERN,
  CREDENTIAL_KINDS,
} from './store';
export type { Profile, ProfileInput, ProfileCheck, ProfileErrorCode, CredentialKind, ResolvedCredential } from './store';
