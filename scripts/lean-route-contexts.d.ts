import type { Plugin } from 'vite';

/** Build plugin: Fastify does less per route when routes are declared (see lean-route-contexts.js). */
export function leanRouteContexts(): Plugin;
