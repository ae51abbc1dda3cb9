// Monaco with only what Drydock edits (YAML model files, JSON, SQL, JavaScript model files), and its
// workers bundled by Vite (`?worker`), so nothing loads from a CDN and the CSP needs no eval.
import * as core from 'monaco-editor/esm/vs/editor/edcore.main.js';
import type * as MonacoApi from 'monaco-editor';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/sql/sql.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/javascript/javascript.contribution.js';
import 'monaco-editor/esm/vs/language/json/monaco.contribution.js';
import { configureMonacoYaml, type MonacoYaml, type SchemasSettings } from 'monaco-yaml';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import YamlWorker from './yaml.worker?worker';

globalThis.MonacoEnvironment = {
  getWorker(_moduleId: string, label: string) {
    switch (label) {
      case 'json':
        return new JsonWorker();
      case 'yaml':
        return new YamlWorker();
      default:
        return new EditorWorker();
    }
  },
};

/** The editor API (the core entry point has the same exports as `monaco-editor`, minus languages we leave out). */
export const monaco = core as typeof MonacoApi;

let yaml: MonacoYaml | null = null;

/** YAML validation and completion against JSON schemas (model files, settings). */
export function setYamlSchemas(schemas: SchemasSettings[]): void {
  if (yaml) void yaml.update({ schemas });
  else yaml = configureMonacoYaml(monaco, { enableSchemaRequest: false, schemas });
}

/**
 * Monaco's own themes with the colours that fail WCAG AA text contrast (4.5:1) on the editor's
 * background darkened (light) or lightened (dark) — SQL operators and functions, annotations, markup
 * delimiters, SQL strings, dimmed line numbers (issue 24: axe found them in every read-only DDL view).
 */
const THEMES = {
  'drydock-light': {
    base: 'vs',
    rules: [
      { token: 'operator.sql', foreground: '56677a' },
      { token: 'predefined.sql', foreground: 'a0209f' },
      { token: 'string.sql', foreground: 'c00000' },
      { token: 'annotation', foreground: '6e6e6e' },
      { token: 'delimiter.html', foreground: '6e6e6e' },
      { token: 'delimiter.xml', foreground: '6e6e6e' },
      { token: 'metatag.html', foreground: '6e6e6e' },
      { token: 'metatag.content.html', foreground: 'c00000' },
      { token: 'attribute.name', foreground: 'c00000' },
    ],
    colors: { 'editorLineNumber.foreground': '#237893', 'editorLineNumber.dimmedForeground': '#3d6f7f' },
  },
  'drydock-dark': {
    base: 'vs-dark',
    rules: [
      { token: 'comment', foreground: '6a9955' },
      { token: 'annotation', foreground: '9a9a9a' },
      { token: 'delimiter.html', foreground: '9a9a9a' },
      { token: 'metatag.html', foreground: '9a9a9a' },
      { token: 'metatag.xml', foreground: '9a9a9a' },
      { token: 'operator.sql', foreground: '8a9bac' },
      { token: 'string.sql', foreground: 'f48771' },
    ],
    colors: { 'editorLineNumber.foreground': '#9a9a9a', 'editorLineNumber.dimmedForeground': '#8a8a8a' },
  },
} as const;

let themesDefined = false;

export function themeFor(dark: boolean): string {
  if (!themesDefined) {
    for (const [name, theme] of Object.entries(THEMES)) monaco.editor.defineTheme(name, { base: theme.base, inherit: true, rules: [...theme.rules], colors: { ...theme.colors } });
    themesDefined = true;
  }
  return dark ? 'drydock-dark' : 'drydock-light';
}
