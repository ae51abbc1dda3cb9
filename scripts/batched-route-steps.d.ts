import type { Plugin } from 'vite';

/** Build plugin: Fastify routes added in a row share one avvio step (see batched-route-steps.js). */
export function batchedRouteSteps(): Plugin;
