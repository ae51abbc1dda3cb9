// Remote profiles: other Drydock services or platform tenants (routes, the renderer's proxy,
// connection tests, and cross-instance promotion and publish). The profile records and their
// credentials live in platform/profiles, shared with the CLI.
export { registerProfileRoutes } from './routes';
