// Electronegativity (Doyensec's static checker of Electron security settings) over the desktop shell.
// Every finding must be justified in electronegativity.json, and every justification must still
// match a finding; the claims the justifications make about security.ts are asserted here as well.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, secureWebPreferences, windowOpenDecision } from '../../../src-main/app/security';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const require = createRequire(import.meta.url);

interface Config {
  input: string;
  excludeChecks: Record<string, string>;
  justified: { check: string; file: string; reason: string }[];
}

interface Finding {
  id: string;
  file: string;
  location: { line: number };
  severity: { name: string };
  sample?: string;
}

const config = JSON.parse(readFileSync(`${root}/electronegativity.json`, 'utf8')) as Config;
const electronVersion = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.electron!.replace(/^[^\d]*/, '');

async function scan(): Promise<Finding[]> {
  const mod = require('@doyensec/electronegativity') as { default?: unknown };
  const run = (mod.default ?? mod) as (options: Record<string, unknown>) => Promise<{ issues: Finding[] }>;
  const result = await run({
    input: `${root}/${config.input}`,
    isRelative: true,
    customScan: [],
    excludeFromScan: Object.keys(config.excludeChecks),
    electronVersionOverride: electronVersion,
  });
  return result.issues;
}

describe('electronegativity over the Electron shell', () => {
  it('finds nothing that electronegativity.json does not justify, and every justification still matches a finding', { timeout: 120_000 }, async () => {
    const findings = await scan();
    const key = (check: string, file: string) => `${check} ${file}`;
    const justified = new Set(config.justified.map((j) => key(j.check, j.file)));
    const unjustified = findings.filter((f) => !justified.has(key(f.id, f.file))).map((f) => `${f.severity.name} ${f.id} ${f.file}:${f.location.line} ${f.sample ?? ''}`);
    expect(unjustified).toEqual([]);
    const found = new Set(findings.map((f) => key(f.id, f.file)));
    expect(config.justified.filter((j) => !found.has(key(j.check, j.file))).map((j) => key(j.check, j.file))).toEqual([]);
    for (const j of config.justified) expect(j.reason.length, key(j.check, j.file)).toBeGreaterThan(40);
    for (const reason of Object.values(config.excludeChecks)) expect(reason.length).toBeGreaterThan(40);
  });

  it('the justifications hold: isolated, sandboxed windows without Node, auxclick off, no new windows, a strict CSP', () => {
    expect(secureWebPreferences('/preload.js')).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(windowOpenDecision()).toEqual({ action: 'deny' });
    const directives = new Map(CONTENT_SECURITY_POLICY.split(';').map((d) => { const [name, ...values] = d.trim().split(/\s+/); return [name!, values]; }));
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  });
});
