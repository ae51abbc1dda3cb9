import type { Plugin } from 'vite';

/** Build plugin applying exact source replacements to files under node_modules (see source-rewrites.js). */
export function sourceRewrites(name: string, rewrites: Record<string, [string, string][]>, library: string): Plugin;
