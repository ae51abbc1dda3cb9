/** How a command authenticates: an API key (`Api-Key …`) or a bearer token (`Bearer …`). */
export type Credential = { kind: 'apiKey'; value: string } | { kind: 'token'; value: string };

export function authorization(credential: Credential): string {
  return credential.kind === 'apiKey' ? `Api-Key ${credential.value}` : `Bearer ${credential.value}`;
}
