import type { OrgRole } from '../../domain/org-roles.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { Clock } from '../../domain/clock.ts';
import { OAuthError } from '../../domain/oauth-errors.ts';
import type { OAuthClient, OAuthRepository } from '../../store/repositories/oauth-repository.ts';
import { ACCESS_TOKEN_PREFIX, CODE_PREFIX, newId, newSecret, PKCE_VALUE, REFRESH_TOKEN_PREFIX, s256, sameSecret, sha256Hex } from './secrets.ts';

// The use cases of the MCP authorization server (docs/mcp.md): registered clients, and
// authorization codes and tokens: issue, exchange, rotate, verify, revoke.
// - Codes live 5 minutes and are single-use; presenting a used code again
//   revokes the whole grant (RFC 9700 §4.5.3 / OAuth 2.1 §4.1.3).
// - Access tokens live 15 minutes; refresh tokens 30 days and rotate on every
//   use. A retired refresh token presented again means it leaked: the grant and
//   every token under it are revoked (OAuth 2.1 §4.3.1 for public clients).
// - A token is bound to the client and to the resource (audience) of its grant.

const CODE_TTL_SECONDS = 300;
const ACCESS_TTL_SECONDS = 900;
const REFRESH_TTL_SECONDS = 30 * 86_400;
/** Registered clients that never got a grant are forgotten after this. */
const STALE_CLIENT_DAYS = 30;

export type { OAuthClient };

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** Absent when the client did not register the refresh_token grant. */
  refresh_token?: string;
  scope: string;
}

export interface VerifiedAccess {
  userId: string;
  /** The organisation the grant was given for, and the user's role there now (docs/teams.md, "MCP"). */
  orgId: string;
  role: OrgRole;
  /** The organisation's plan now (a plan change applies to live tokens at once). */
  plan: UserPlan;
  clientId: string;
  scopes: string[];
  resource: string;
  /** Unix seconds. */
  expiresAt: number;
}

export function oauthService(deps: { oauth: OAuthRepository; clock: Clock }) {
  const { oauth: repo, clock } = deps;
  const iso = (offsetSeconds = 0) => new Date(clock.now().getTime() + offsetSeconds * 1000).toISOString();
  let lastPurge = 0;

  async function purgeNowAndThen() {
    const now = clock.now().getTime();
    if (now - lastPurge < 3_600_000) return;
    lastPurge = now;
    await repo.purgeExpired(iso(), iso(-STALE_CLIENT_DAYS * 86_400));
  }

  async function issue(client: OAuthClient, grantId: string, scope: string): Promise<TokenResponse> {
    const access = newSecret(ACCESS_TOKEN_PREFIX);
    const refresh = client.grantTypes.includes('refresh_token') ? newSecret(REFRESH_TOKEN_PREFIX) : null;
    await repo.insertTokens(
      grantId,
      [
        { hash: sha256Hex(access), kind: 'access', expiresAt: iso(ACCESS_TTL_SECONDS) },
        ...(refresh ? [{ hash: sha256Hex(refresh), kind: 'refresh' as const, expiresAt: iso(REFRESH_TTL_SECONDS) }] : []),
      ],
      iso(),
    );
    await purgeNowAndThen();
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TTL_SECONDS,
      ...(refresh ? { refresh_token: refresh } : {}),
      scope,
    };
  }

  return {
    /** RFC 7591 registration: stores a client as registerClient (mcp/oauth/clients.ts) built it. */
    async registerClient(client: OAuthClient): Promise<void> {
      await repo.createClient(client);
    },

    async getClient(clientId: string): Promise<OAuthClient | null> {
      return repo.getClient(clientId);
    },

    /** After consent: records the grant and returns a fresh authorization code. */
    async createCode(p: {
      client: OAuthClient;
      userId: string;
      orgId: string;
      scope: string;
      resource: string;
      redirectUri: string;
      codeChallenge: string;
    }): Promise<string> {
      const code = newSecret(CODE_PREFIX);
      await repo.createGrantWithCode(
        { id: newId('grant_'), clientId: p.client.clientId, userId: p.userId, orgId: p.orgId, scope: p.scope, resource: p.resource, createdAt: iso() },
        { hash: sha256Hex(code), redirectUri: p.redirectUri, codeChallenge: p.codeChallenge, expiresAt: iso(CODE_TTL_SECONDS) },
      );
      return code;
    },

    async exchangeCode(p: {
      client: OAuthClient;
      code: string;
      redirectUri: string | undefined;
      codeVerifier: string | undefined;
      resource: string | undefined;
    }): Promise<TokenResponse> {
      if (!p.code) throw new OAuthError('invalid_request', 'code is required');
      if (!p.codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
      if (!PKCE_VALUE.test(p.codeVerifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43-128 unreserved characters');
      const stored = await repo.findCode(sha256Hex(p.code));
      if (!stored || stored.clientId !== p.client.clientId) throw new OAuthError('invalid_grant', 'Unknown authorization code');
      if (stored.grantRevokedAt) throw new OAuthError('invalid_grant', 'The authorization was revoked');
      if (stored.usedAt) {
        // A second exchange of one code: someone else may hold the first tokens.
        await repo.revokeGrant(stored.grantId, iso());
        throw new OAuthError('invalid_grant', 'The authorization code was already used; its tokens are revoked');
      }
      if (stored.expiresAt <= iso()) throw new OAuthError('invalid_grant', 'The authorization code has expired');
      if (p.redirectUri === undefined || p.redirectUri !== stored.redirectUri) {
        throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
      }
      if (!sameSecret(s256(p.codeVerifier), stored.codeChallenge)) {
        throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
      }
      if (p.resource !== undefined && p.resource !== stored.resource) {
        throw new OAuthError('invalid_target', 'resource does not match the authorization request');
      }
      if (!(await repo.consumeCode(sha256Hex(p.code), iso()))) {
        await repo.revokeGrant(stored.grantId, iso());
        throw new OAuthError('invalid_grant', 'The authorization code was already used; its tokens are revoked');
      }
      return issue(p.client, stored.grantId, stored.scope);
    },

    async refresh(p: { client: OAuthClient; refreshToken: string; scope: string | undefined; resource: string | undefined }): Promise<TokenResponse> {
      if (!p.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
      const hash = sha256Hex(p.refreshToken);
      const stored = await repo.findToken(hash);
      if (stored?.kind !== 'refresh' || stored.clientId !== p.client.clientId) {
        throw new OAuthError('invalid_grant', 'Unknown refresh token');
      }
      if (stored.grantRevokedAt) throw new OAuthError('invalid_grant', 'The authorization was revoked');
      if (stored.revokedAt) {
        await repo.revokeGrant(stored.grantId, iso());
        throw new OAuthError('invalid_grant', 'The refresh token was already used; the authorization is revoked');
      }
      if (stored.expiresAt <= iso()) throw new OAuthError('invalid_grant', 'The refresh token has expired');
      if (p.resource !== undefined && p.resource !== stored.resource) {
        throw new OAuthError('invalid_target', 'resource does not match the authorization');
      }
      const granted = stored.scope.split(' ');
      const scope = p.scope ? p.scope.split(' ').filter(Boolean) : granted;
      if (scope.some((s) => !granted.includes(s))) throw new OAuthError('invalid_scope', 'scope exceeds what was granted');
      if (!(await repo.retireRefreshToken(hash, iso()))) {
        await repo.revokeGrant(stored.grantId, iso());
        throw new OAuthError('invalid_grant', 'The refresh token was already used; the authorization is revoked');
      }
      return issue(p.client, stored.grantId, scope.join(' '));
    },

    /** The grant behind a live access token, or null (unknown, expired, revoked). */
    async verifyAccess(token: string): Promise<VerifiedAccess | null> {
      if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
      const t = await repo.findToken(sha256Hex(token));
      if (t?.kind !== 'access' || t.revokedAt || t.grantRevokedAt || t.expiresAt <= iso()) return null;
      return {
        userId: t.userId,
        orgId: t.orgId,
        role: t.role,
        plan: t.plan,
        clientId: t.clientId,
        scopes: t.scope.split(' ').filter(Boolean),
        resource: t.resource,
        expiresAt: Math.floor(Date.parse(t.expiresAt) / 1000),
      };
    },

    /**
     * RFC 7009: revokes a token of this client. Revoking a refresh token ends the
     * grant (its access tokens too). Unknown tokens are not an error.
     */
    async revoke(client: OAuthClient, token: string): Promise<void> {
      const t = await repo.findToken(sha256Hex(token));
      if (!t || t.clientId !== client.clientId) return;
      if (t.kind === 'refresh') await repo.revokeGrant(t.grantId, iso());
      else await repo.revokeToken(sha256Hex(token), iso());
    },
  };
}

export type OAuthService = ReturnType<typeof oauthService>;
