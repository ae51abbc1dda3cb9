import * as api from '../../../src-shared/api/embed';
import type { Api } from '../../http/route';
import { createComment, commentScope, deleteComment, listComments, mentionableUsers, resolveComment, updateComment } from './comments';
import { runPython, setSignedEmbedding } from './dashboards';
import { assertEmbeddingEnabled, exchangeSession, generateSession, revokeSession } from './sessions';

export function registerEmbedSessionRoutes({ route, ctx }: Api): void {
  const admin = { access: ['admin' as const] };
  const embed = { allowEmbed: true };

  route(api.generateEmbedSession, admin, ({ principal, body }) => generateSession(ctx, principal, body));
  route(api.exchangeEmbedSession, {}, ({ body }) => exchangeSession(ctx, body.sessionId));
  route(api.revokeEmbedSession, admin, ({ body }) => {
    assertEmbeddingEnabled(ctx);
    revokeSession(ctx, body.sessionId);
    return null;
  });

  route(api.updateEmbedDashboard, admin, ({ principal, params, body }) => setSignedEmbedding(ctx, principal, params.publicId, body.signedEmbeddingEnabled));
  route(api.runEmbedDashboardPython, embed, ({ principal, params, body }) => runPython(ctx, principal, params.publicId, body.widgetId));

  route(api.listEmbedComments, embed, ({ principal, params, query }) => listComments(ctx, commentScope(ctx, principal, params.publicId), query));
  route(api.createEmbedComment, embed, ({ principal, params, body }) => createComment(ctx, commentScope(ctx, principal, params.publicId), body));
  route(api.updateEmbedComment, embed, ({ principal, params, body }) =>
    updateComment(ctx, commentScope(ctx, principal, params.publicId), params.commentId, body),
  );
  route(api.deleteEmbedComment, embed, ({ principal, params }) => {
    deleteComment(ctx, commentScope(ctx, principal, params.publicId), params.commentId);
    return null;
  });
  route(api.resolveEmbedComment, embed, ({ principal, params, body }) =>
    resolveComment(ctx, commentScope(ctx, principal, params.publicId), params.commentId, body.resolved ?? true),
  );
  route(api.listMentionableUsers, embed, ({ principal, params, query }) => mentionableUsers(ctx, commentScope(ctx, principal, params.publicId), query));
}
