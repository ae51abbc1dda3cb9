// The spec's embedding tag group: embed tenants with their users and groups (tenants.ts), embed
// sessions (sessions.ts) and what a session does on an embedded dashboard (dashboards.ts).
import { createEmbedComment, deleteEmbedComment, listEmbedComments, listMentionableUsers, resolveEmbedComment, runEmbedDashboardPython, updateEmbedComment, updateEmbedDashboard } from './dashboards';
import { exchangeEmbedSession, generateEmbedSession, revokeEmbedSession } from './sessions';

export * from './tenants';
export * from './sessions';
export * from './dashboards';

export const embedRoutes = {
  generateEmbedSession,
  exchangeEmbedSession,
  revokeEmbedSession,
  updateEmbedDashboard,
  runEmbedDashboardPython,
  listEmbedComments,
  createEmbedComment,
  updateEmbedComment,
  deleteEmbedComment,
  resolveEmbedComment,
  listMentionableUsers,
};
