import type { Kysely } from 'kysely';
import type { OrgRole } from '../../domain/org-roles.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database, OAuthTokensTable } from '../schema.ts';
import { fromJson, toJson } from './json.ts';

// OAuth clients, grants, authorization codes and tokens. Every secret arrives
// here already hashed; lookups are by hash. The single-use rules (a code is
// exchanged once, a refresh token is rotated once) are enforced by conditional
// updates, so two concurrent exchanges cannot both succeed on either dialect.

export interface OAuthClient {
  clientId: string;
  secretHash: string | null;
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  authMethod: string;
  scope: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}

interface GrantInfo {
  grantId: string;
  clientId: string;
  userId: string;
  scope: string;
  resource: string;
  grantRevokedAt: string | null;
}

export interface StoredCode extends GrantInfo {
  redirectUri: string;
  codeChallenge: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface StoredToken extends GrantInfo {
  kind: 'access' | 'refresh';
  /** The organisation the grant was given for, the user's role there and its current plan. */
  orgId: string;
  role: OrgRole;
  plan: UserPlan;
  expiresAt: string;
  revokedAt: string | null;
}

export interface NewToken {
  hash: string;
  kind: 'access' | 'refresh';
  expiresAt: string;
}

export interface UserGrant {
  grantId: string;
  clientId: string;
  clientName: string;
  scope: string;
  createdAt: string;
  /** Newest token issued under this grant (when the client last connected or refreshed). */
  lastUsedAt: string | null;
}

export function oauthRepository(db: Kysely<Database>) {
  const grantColumns = [
    'oauth_grants.id as grantId',
    'oauth_grants.client_id as clientId',
    'oauth_grants.user_id as userId',
    'oauth_grants.scope as scope',
    'oauth_grants.resource as resource',
    'oauth_grants.revoked_at as grantRevokedAt',
  ] as const;

  return {
    async createClient(c: OAuthClient): Promise<void> {
      await db
        .insertInto('oauth_clients')
        .values({
          client_id: c.clientId,
          secret_hash: c.secretHash,
          name: c.name,
          redirect_uris: toJson(c.redirectUris),
          grant_types: toJson(c.grantTypes),
          auth_method: c.authMethod,
          scope: c.scope,
          metadata: toJson(c.metadata),
          created_at: c.createdAt,
          last_used_at: null,
        })
        .execute();
    },

    async getClient(clientId: string): Promise<OAuthClient | null> {
      const r = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
      if (!r) return null;
      return {
        clientId: r.client_id,
        secretHash: r.secret_hash,
        name: r.name,
        redirectUris: fromJson<string[]>(r.redirect_uris, []),
        grantTypes: fromJson<string[]>(r.grant_types, []),
        authMethod: r.auth_method,
        scope: r.scope,
        metadata: fromJson<Record<string, unknown>>(r.metadata, {}),
        createdAt: r.created_at,
      };
    },

    /** One consent: the grant and its authorization code, together or not at all. */
    async createGrantWithCode(
      grant: { id: string; clientId: string; userId: string; orgId: string; scope: string; resource: string; createdAt: string },
      code: { hash: string; redirectUri: string; codeChallenge: string; expiresAt: string },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('oauth_grants')
          .values({
            id: grant.id,
            client_id: grant.clientId,
            user_id: grant.userId,
            org_id: grant.orgId,
            scope: grant.scope,
            resource: grant.resource,
            created_at: grant.createdAt,
            revoked_at: null,
          })
          .execute();
        await trx
          .insertInto('oauth_codes')
          .values({
            code_hash: code.hash,
            grant_id: grant.id,
            redirect_uri: code.redirectUri,
            code_challenge: code.codeChallenge,
            expires_at: code.expiresAt,
            used_at: null,
          })
          .execute();
        await trx.updateTable('oauth_clients').set({ last_used_at: grant.createdAt }).where('client_id', '=', grant.clientId).execute();
      });
    },

    async findCode(hash: string): Promise<StoredCode | null> {
      const r = await db
        .selectFrom('oauth_codes')
        .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_codes.grant_id')
        .select([
          ...grantColumns,
          'oauth_codes.redirect_uri as redirectUri',
          'oauth_codes.code_challenge as codeChallenge',
          'oauth_codes.expires_at as expiresAt',
          'oauth_codes.used_at as usedAt',
        ])
        .where('oauth_codes.code_hash', '=', hash)
        .executeTakeFirst();
      return r ?? null;
    },

    /** Marks the code used; false when it already was (a replay). */
    async consumeCode(hash: string, at: string): Promise<boolean> {
      const r = await db.updateTable('oauth_codes').set({ used_at: at }).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async insertTokens(grantId: string, tokens: NewToken[], createdAt: string): Promise<void> {
      if (!tokens.length) return;
      const rows: OAuthTokensTable[] = tokens.map((t) => ({
        token_hash: t.hash,
        kind: t.kind,
        grant_id: grantId,
        created_at: createdAt,
        expires_at: t.expiresAt,
        revoked_at: null,
      }));
      await db.insertInto('oauth_tokens').values(rows).execute();
    },

    async findToken(hash: string): Promise<StoredToken | null> {
      const r = await db
        .selectFrom('oauth_tokens')
        .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
        // A token acts for its grant's organisation while its user is a member there (docs/teams.md, "MCP").
        .innerJoin('memberships', (j) => j.onRef('memberships.org_id', '=', 'oauth_grants.org_id').onRef('memberships.user_id', '=', 'oauth_grants.user_id'))
        .innerJoin('organisations', 'organisations.id', 'memberships.org_id')
        .select([
          ...grantColumns,
          'organisations.id as orgId',
          'memberships.role as role',
          'organisations.plan as plan',
          'oauth_tokens.kind as kind',
          'oauth_tokens.expires_at as expiresAt',
          'oauth_tokens.revoked_at as revokedAt',
        ])
        .where('oauth_tokens.token_hash', '=', hash)
        .executeTakeFirst();
      return r ? { ...r, kind: r.kind as 'access' | 'refresh', plan: r.plan as UserPlan, role: r.role as OrgRole } : null;
    },

    /** Retires a refresh token on use; false when it was already used or revoked. */
    async retireRefreshToken(hash: string, at: string): Promise<boolean> {
      const r = await db
        .updateTable('oauth_tokens')
        .set({ revoked_at: at })
        .where('token_hash', '=', hash)
        .where('kind', '=', 'refresh')
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async revokeToken(hash: string, at: string): Promise<void> {
      await db.updateTable('oauth_tokens').set({ revoked_at: at }).where('token_hash', '=', hash).where('revoked_at', 'is', null).execute();
    },

    /** Ends a grant: every token issued under it stops working. */
    async revokeGrant(grantId: string, at: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('oauth_grants').set({ revoked_at: at }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
        await trx.updateTable('oauth_tokens').set({ revoked_at: at }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
      });
    },

    /** Active grants of a user (the applications connected to the account). */
    async listUserGrants(userId: string): Promise<UserGrant[]> {
      const rows = await db
        .selectFrom('oauth_grants')
        .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
        .leftJoin('oauth_tokens', 'oauth_tokens.grant_id', 'oauth_grants.id')
        .select(({ fn }) => [
          'oauth_grants.id as grantId',
          'oauth_grants.client_id as clientId',
          'oauth_clients.name as clientName',
          'oauth_grants.scope as scope',
          'oauth_grants.created_at as createdAt',
          fn.max('oauth_tokens.created_at').as('lastUsedAt'),
        ])
        .where('oauth_grants.user_id', '=', userId)
        .where('oauth_grants.revoked_at', 'is', null)
        .groupBy(['oauth_grants.id', 'oauth_grants.client_id', 'oauth_clients.name', 'oauth_grants.scope', 'oauth_grants.created_at'])
        .orderBy('oauth_grants.created_at', 'desc')
        .execute();
      return rows.map((r) => ({ ...r, lastUsedAt: r.lastUsedAt ?? null }));
    },

    /** Revokes a user's grant; false when the user has no such active grant. */
    async revokeUserGrant(userId: string, grantId: string, at: string): Promise<boolean> {
      const g = await db
        .selectFrom('oauth_grants')
        .select('id')
        .where('id', '=', grantId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!g) return false;
      await this.revokeGrant(grantId, at);
      return true;
    },

    /**
     * Deletes expired codes and tokens, revoked grants without live tokens, and
     * registered clients that never obtained a grant within `staleClientsBefore`.
     */
    async purgeExpired(now: string, staleClientsBefore: string): Promise<void> {
      await db.deleteFrom('oauth_codes').where('expires_at', '<', now).execute();
      await db.deleteFrom('oauth_tokens').where('expires_at', '<', now).execute();
      await db
        .deleteFrom('oauth_grants')
        .where('revoked_at', 'is not', null)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('oauth_tokens').select('token_hash').whereRef('oauth_tokens.grant_id', '=', 'oauth_grants.id'))),
        )
        .execute();
      await db.deleteFrom('oauth_clients').where('created_at', '<', staleClientsBefore).where('last_used_at', 'is', null).execute();
    },
  };
}

export type OAuthRepository = ReturnType<typeof oauthRepository>;
