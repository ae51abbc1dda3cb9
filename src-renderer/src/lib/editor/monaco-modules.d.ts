// Monaco's core editor without its bundled language services. Its types are those of
// `monaco-editor` (see monaco.ts); these deep entry points publish none.
declare module 'monaco-editor/esm/vs/editor/edcore.main.js';
declare module 'monaco-editor/esm/vs/basic-languages/*';
declare module 'monaco-editor/esm/vs/language/json/monaco.contribution.js';
