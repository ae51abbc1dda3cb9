import type { ESLint, Rule } from 'eslint';

/** The ESLint rule `drydock/no-import-cycles` (see no-import-cycles.js). */
export const noImportCycles: Rule.RuleModule;
/** The source file a relative import specifier names, or null. */
export function resolveImport(specifier: string, fromFile: string): string | null;
declare const plugin: ESLint.Plugin & { rules: { 'no-import-cycles': Rule.RuleModule } };
export default plugin;
