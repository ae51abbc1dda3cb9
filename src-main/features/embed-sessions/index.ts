/** What other areas may call on embed sessions and embedded dashboards. */
export {
  assertAiAllowed,
  effectiveSessionSettings,
  embedSessionOf,
  exchangeSession,
  revokeSession,
  revokeTenantSessions,
  EMBED_TOKEN_TTL_SECONDS,
  type EmbedSessionClaims,
} from './sessions';
export { assertEmbedCanOpen, isSignedEmbeddingEnabled } from './dashboards';
