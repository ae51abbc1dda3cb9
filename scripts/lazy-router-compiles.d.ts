import type { Plugin } from 'vite';

/** Build plugin: find-my-way compiles its lookup helpers on first use instead of when a route is added. */
export function lazyRouterCompiles(): Plugin;
