import type { Plugin } from 'vite';

/** Build plugin: Fastify and @fastify/static load what only unused features need on first use (see lazy-fastify-requires.js). */
export function lazyFastifyRequires(): Plugin;
