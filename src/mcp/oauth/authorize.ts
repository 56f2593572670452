import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_PLAN_POLICIES, type Plan } from '../../domain/plans.ts';
import type { OAuthClient, OAuthService } from '../../services/oauth/oauth-service.ts';
import { HISTORY_SCOPE, SUPPORTED_SCOPES } from '../context.ts';
import { MCP_PATH, type Origins } from '../origins.ts';
import { csrfToken, formPostProblem } from './csrf.ts';
import { OAuthError } from '../../domain/oauth-errors.ts';
import type { OAuthPages } from './pages.ts';
import { readParams } from './params.ts';
import { PKCE_VALUE } from '../../services/oauth/secrets.ts';

// The authorization endpoint (OAuth 2.1 §4.1.1): authorization code with PKCE
// S256 only. GET validates the request and shows the consent page to the user
// logged in through the web session (or sends them to log in first); POST
// records the decision. Errors about the client or its redirect URI are shown
// here, never redirected (RFC 6749 §4.1.2.1); all others go back to the client
// with `error`, `state` and `iss` (RFC 9207).

export const AUTHORIZE_PATH = '/oauth/authorize';
const REQUEST_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'] as const;

export interface LoggedInUser {
  id: string;
  email: string;
  plan: Plan;
  /** The organisation the session acts for: the grant (and the MCP tools) answer for it. */
  orgId: string;
}

/** The web login this endpoint relies on (sessions belong to the account area). */
export interface WebLogin {
  user(req: FastifyRequest): Promise<LoggedInUser | null>;
  /** Where someone who must log in first is sent, coming back to `returnTo` afterwards. */
  loginUrl(returnTo: string): string;
  /** Origins a state-changing form post may come from (besides the issuer's own). */
  allowedOrigins: string[];
}

interface ValidRequest {
  client: OAuthClient;
  redirectUri: string;
  scope: string;
  resource: string;
  codeChallenge: string;
  state: string | undefined;
}

class RedirectError extends Error {
  readonly error: string;
  readonly description: string;

  constructor(error: string, description: string) {
    super(description);
    this.error = error;
    this.description = description;
  }
}

export async function authorizeRoutes(app: FastifyInstance, deps: { tokens: OAuthService; origins: Origins; login: WebLogin; pages: OAuthPages }) {
  const { tokens, origins, login, pages } = deps;

  /** Client and redirect URI first: until both are known good, nothing is redirected. */
  async function clientAndRedirect(p: Record<string, string | undefined>): Promise<{ client: OAuthClient; redirectUri: string }> {
    if (!p.client_id) throw new OAuthError('invalid_request', 'client_id is missing');
    const client = await tokens.getClient(p.client_id);
    if (!client) throw new OAuthError('invalid_client', 'This application is not registered (unknown client_id)');
    let redirectUri = p.redirect_uri;
    if (redirectUri === undefined) {
      if (client.redirectUris.length !== 1) throw new OAuthError('invalid_request', 'redirect_uri is missing');
      redirectUri = client.redirectUris[0];
    }
    // Exact string match (OAuth 2.1 §2.3.1).
    if (!client.redirectUris.includes(redirectUri)) throw new OAuthError('invalid_request', 'redirect_uri is not registered for this application');
    return { client, redirectUri };
  }

  function rest(req: FastifyRequest, p: Record<string, string | undefined>, client: OAuthClient, redirectUri: string): ValidRequest {
    if (p.response_type !== 'code') throw new RedirectError('unsupported_response_type', "response_type must be 'code'");
    if (!p.code_challenge) throw new RedirectError('invalid_request', 'code_challenge is required (PKCE)');
    if (p.code_challenge_method !== 'S256') throw new RedirectError('invalid_request', "code_challenge_method must be 'S256'");
    if (!PKCE_VALUE.test(p.code_challenge)) throw new RedirectError('invalid_request', 'code_challenge is malformed');
    const requested = (p.scope ?? client.scope ?? HISTORY_SCOPE).split(' ').filter(Boolean);
    const unknown = requested.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
    if (unknown.length) throw new RedirectError('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
    const scope = (requested.length ? requested : [HISTORY_SCOPE]).join(' ');
    const resource = p.resource ?? origins.resource(req);
    if (!origins.isOurResource(resource, req)) {
      throw new RedirectError('invalid_target', `resource must be this service's MCP endpoint (…${MCP_PATH})`);
    }
    return { client, redirectUri, scope, resource, codeChallenge: p.code_challenge, state: p.state };
  }

  function redirectBack(req: FastifyRequest, reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>) {
    const u = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
    u.searchParams.set('iss', origins.issuer(req));
    // The page's own policy (same-origin) already sends no Referer to the application; the
    // answer that carries the code says so too, in case a browser lets a redirect's policy win.
    return reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').redirect(u.toString(), 303);
  }

  /** Validates everything; answers an error page or a redirect when something is wrong. */
  async function validate(req: FastifyRequest, reply: FastifyReply, source: unknown): Promise<ValidRequest | null> {
    let p: Record<string, string | undefined>;
    let client: OAuthClient;
    let redirectUri: string;
    try {
      p = readParams(source, [...REQUEST_PARAMS]);
      ({ client, redirectUri } = await clientAndRedirect(p));
    } catch (err) {
      if (err instanceof OAuthError) {
        await pages.error(req, reply, 400, err.description);
        return null;
      }
      throw err;
    }
    try {
      return rest(req, p, client, redirectUri);
    } catch (err) {
      if (err instanceof RedirectError) {
        await redirectBack(req, reply, redirectUri, { error: err.error, error_description: err.description, state: p.state });
        return null;
      }
      throw err;
    }
  }

  app.get(AUTHORIZE_PATH, { schema: { hide: true } }, async (req, reply) => {
    const valid = await validate(req, reply, req.query);
    if (!valid) return reply;
    const user = await login.user(req);
    if (!user) {
      return reply.header('Cache-Control', 'no-store').redirect(login.loginUrl(req.url), 302);
    }
    const csrf = csrfToken(req, reply, origins.requestOrigin(req).startsWith('https:'));
    const fields: Record<string, string> = {
      response_type: 'code',
      client_id: valid.client.clientId,
      redirect_uri: valid.redirectUri,
      scope: valid.scope,
      code_challenge: valid.codeChallenge,
      code_challenge_method: 'S256',
      resource: valid.resource,
      ...(valid.state !== undefined ? { state: valid.state } : {}),
    };
    return pages.consent(req, reply, {
      clientName: valid.client.name,
      redirectUri: valid.redirectUri,
      userEmail: user.email,
      plan: user.plan,
      windowDays: DEFAULT_PLAN_POLICIES[user.plan].windowDays,
      fields,
      csrfToken: csrf,
      action: AUTHORIZE_PATH,
    });
  });

  app.post(AUTHORIZE_PATH, { schema: { hide: true }, bodyLimit: 32_768 }, async (req, reply) => {
    // A cross-site post is refused before anything else is looked at.
    const problem = formPostProblem(req, [origins.requestOrigin(req), origins.issuer(req), ...login.allowedOrigins]);
    if (problem) return pages.error(req, reply, 403, problem);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const valid = await validate(req, reply, body);
    if (!valid) return reply;
    const user = await login.user(req);
    if (!user) return pages.error(req, reply, 401, 'You are no longer logged in. Start again from the application.');

    if (body.decision !== 'allow') {
      return redirectBack(req, reply, valid.redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied access',
        state: valid.state,
      });
    }
    const code = await tokens.createCode({
      client: valid.client,
      userId: user.id,
      orgId: user.orgId,
      scope: valid.scope,
      resource: valid.resource,
      redirectUri: valid.redirectUri,
      codeChallenge: valid.codeChallenge,
    });
    req.log.info({ clientId: valid.client.clientId, userId: user.id }, 'oauth consent granted');
    return redirectBack(req, reply, valid.redirectUri, { code, state: valid.state });
  });
}
