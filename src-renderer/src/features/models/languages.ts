// Which Monaco language a model file is edited in, and its name for the status bar.

export function languageOf(path: string): string {
  const p = path.toLowerCase();
  if (/\.ya?ml(\.jinja)?$/.test(p)) return 'yaml';
  if (p.endsWith('.js') || p.endsWith('.ts')) return 'javascript';
  if (p.endsWith('.sql')) return 'sql';
  if (p.endsWith('.json')) return 'json';
  return 'plaintext';
}

const NAMES: Record<string, string> = { yaml: 'YAML', javascript: 'JavaScript', sql: 'SQL', json: 'JSON', plaintext: 'Plain text' };

/** `YAML`, `JavaScript` (TypeScript files say so: Monaco edits them as JavaScript). */
export function languageName(path: string): string {
  if (path.toLowerCase().endsWith('.ts')) return 'TypeScript';
  return NAMES[languageOf(path)] ?? 'Plain text';
}
