import * as api from '../../../src-shared/api/embed';
import type { Api } from '../../http/route';
import { createComment, commentScope, deleteComment, listComments, mentionableUsers, resolveComment, updateComment } from './comments';
import { runPython, setSignedEmbedding } from './dashboards';
import { assertEmbeddingEnabled, exchangeSession, generateSession, revokeSession } from './sessions';

export function registerEmbedSessionRoutes({ route, ctx }: Api): void {
  const admin = { access: ['admin' as const] };
  // The embedded dashboard's filtered Python run: an embed session, or a user who can read the deployment.
  const embed = { credentials: ['user' as const, 'embed' as const] };
  // Spec: comments require a signed embed session scoped to an embed tenant (checked per operation).
  const comments = {
    credentials: ['embed' as const],
    credentialRefusals: { user: { code: 'EMBED_SESSION_REQUIRED', detail: 'Dashboard comments need a signed embed session scoped to an embed tenant.' } },
  };

  route(api.generateEmbedSession, admin, ({ principal, body }) => generateSession(ctx, principal, body));
  route(api.exchangeEmbedSession, {}, ({ body }) => exchangeSession(ctx, body.sessionId));
  route(api.revokeEmbedSession, admin, ({ body }) => {
    assertEmbeddingEnabled(ctx);
    revokeSession(ctx, body.sessionId);
    return null;
  });

  route(api.updateEmbedDashboard, admin, ({ principal, params, body }) => setSignedEmbedding(ctx, principal, params.publicId, body.signedEmbeddingEnabled));
  route(api.runEmbedDashboardPython, embed, ({ principal, params, body }) => runPython(ctx, principal, params.publicId, body));

  route(api.listEmbedComments, comments, ({ principal, params, query }) => listComments(ctx, commentScope(ctx, principal, params.publicId), query));
  route(api.createEmbedComment, comments, ({ principal, params, body }) => createComment(ctx, commentScope(ctx, principal, params.publicId), body));
  route(api.updateEmbedComment, comments, ({ principal, params, body }) =>
    updateComment(ctx, commentScope(ctx, principal, params.publicId), params.commentId, body),
  );
  route(api.deleteEmbedComment, comments, ({ principal, params }) => {
    deleteComment(ctx, commentScope(ctx, principal, params.publicId), params.commentId);
    return null;
  });
  route(api.resolveEmbedComment, comments, ({ principal, params, body }) =>
    resolveComment(ctx, commentScope(ctx, principal, params.publicId), params.commentId, body.resolved ?? true),
  );
  route(api.listMentionableUsers, comments, ({ principal, params, query }) => mentionableUsers(ctx, commentScope(ctx, principal, params.publicId), query));
}
