import type { Plugin } from 'vite';

/** Build plugin: Fastify loads node:https, node:http2 and node:dns on first use (see lazy-fastify-builtins.js). */
export function lazyFastifyBuiltins(): Plugin;
