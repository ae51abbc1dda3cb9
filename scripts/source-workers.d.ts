import type { Plugin } from 'vite';

/** Vite plugin resolving `?modulePath` imports to bundled worker files (source mode only). */
export function sourceWorkers(options: { root: string }): Plugin;
