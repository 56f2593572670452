import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../paths.ts';
import { sessionToken } from '../access/credentials.ts';
import { sha256hex } from '../../services/access/secrets.ts';
import { errorResponses } from '../schemas/common.ts';
import { PreferencesResponse } from '../schemas/per-user.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';

// "Add to Slack" (docs/alerts.md, "Slack"): the account area links to
// /slack/install, which sends the browser to Slack; Slack sends it back to
// /slack/oauth/callback, which stores the workspace's bot token (encrypted) and
// returns to the account page with `?slack=connected|denied|failed`. The
// connection shows in `slack_connection` (read-only); DELETE removes it.

const PER_USER_SECURITY: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }];
const SESSION_SECURITY: Record<string, string[]>[] = [{ sessionCookie: [] }];
const tags = ['notifications'];
const CALLBACK_PATH = '/slack/oauth/callback';
/** Where the browser lands after the install (the account page's notification settings). */
const ACCOUNT_PAGE = '/account';

const redirect = (description: string) => ({ 302: Type.Null({ description }) });
const conflict = { 409: Type.Ref('ErrorBody', { description: 'Slack is not available on this server (no Slack app configured)' }) };

export async function slackRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  const s = app.services.slackInstall;
  /** The web session asking, by a hash of its token (the state may carry it; the token never leaves). */
  const sessionRef = (req: FastifyRequest) => {
    const token = req.viewer.authKind === 'session' ? sessionToken(req.headers) : undefined;
    return token ? sha256hex(`slack-state:${token}`).slice(0, 32) : null;
  };
  const redirectUri = (req: FastifyRequest) => `${app.config.publicUrl ?? `${req.protocol}://${req.host}`}${API_PREFIX}${CALLBACK_PATH}`;

  app.get(
    '/slack/install',
    {
      schema: {
        operationId: 'startSlackInstall',
        summary: 'Start the "Add to Slack" install',
        description:
          "The URL of Slack's OAuth v2 authorize page with the bot scopes alerts need (`chat:write`, `chat:write.public`, `im:write`, `users:read`, `users:read.email`) and a state valid for 10 minutes. A browser (Accept: text/html) is redirected there (302); other clients get it as `authorizeUrl` and open it in the user's browser, where the user must be logged in to the account area. 409 when the server has no Slack app (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET).",
        tags,
        security: PER_USER_SECURITY,
        response: {
          200: Type.Object(
            { success: Type.Boolean(), authorizeUrl: Type.String({ format: 'uri', description: "Slack's authorize page for this install" }) },
            { description: 'Where to send the browser' },
          ),
          ...redirect('To Slack (browsers)'),
          ...errorResponses,
          ...conflict,
        },
      },
      config: { auth: 'user' },
    },
    async (req, reply) => {
      const authorizeUrl = s.start(req.viewer, redirectUri(req), sessionRef(req));
      if (/\btext\/html\b/.test(req.headers.accept ?? '')) return reply.redirect(authorizeUrl, 302);
      return { success: true, authorizeUrl };
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      // A browser step of the OAuth flow (like the MCP authorization pages), not an API operation.
      schema: {
        hide: true,
        operationId: 'finishSlackInstall',
        summary: 'Slack OAuth v2 callback',
        description:
          'Slack sends the browser here with `code` and `state` (or `error=access_denied` when the user cancelled). The code is exchanged with `oauth.v2.access`; the bot token is stored encrypted and never shown. Redirects to the account page with `slack=connected`, `slack=denied` or `slack=failed&reason=…`. Only a signed-in web session of the account completes it (403 `session_required` for an API key or token), the same session that started the install when a browser started it; each state works once. 400 when the state is unknown, expired, already used, or belongs to another account or session.',
        tags,
        security: SESSION_SECURITY,
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String({ maxLength: 512 })),
            state: Type.Optional(Type.String({ maxLength: 2048 })),
            error: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
        response: { ...redirect('Back to the account page'), ...errorResponses, ...conflict },
      },
      config: { auth: 'user' },
    },
    async (req, reply) => {
      const r = await s.finish(req.viewer, req.query, redirectUri(req), sessionRef(req));
      const q = new URLSearchParams({ slack: r.result, ...(r.reason ? { reason: r.reason } : {}) });
      return reply.redirect(`${ACCOUNT_PAGE}?${q}#notifications`, 302);
    },
  );

  app.delete(
    '/notification-preferences/slack',
    {
      schema: {
        operationId: 'uninstallSlack',
        summary: 'Disconnect the Slack workspace',
        description: 'Revokes the bot token at Slack (best effort), deletes it, clears `slack_connection` and switches Slack alerts off.',
        tags,
        security: PER_USER_SECURITY,
        response: { 200: PreferencesResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => {
      await s.uninstall(req.viewer);
      const r = await app.services.preferences.get(req.viewer);
      return { success: true, preferences: r.preferences };
    },
  );
}
