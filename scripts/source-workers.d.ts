import type { Plugin } from 'vite';

/** Vite plugin resolving `?modulePath` imports to bundled worker files (source mode only). */
export function sourceWorkers(options: { root: string }): Plugin;

/** Bundles a Node entry (and the workers it imports) from source; returns the bundle's path. */
export function bundleNodeEntry(options: { root: string; entry: string }): Promise<string>;
