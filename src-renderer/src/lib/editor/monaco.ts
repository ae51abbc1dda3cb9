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

export function themeFor(dark: boolean): string {
  return dark ? 'vs-dark' : 'vs';
}
