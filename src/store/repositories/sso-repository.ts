import type { Kysely } from 'kysely';
import type { OrgRole } from '../../domain/org-roles.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { Database } from '../schema.ts';
import { openOrUnavailable, resealColumn } from './sealed-values.ts';

// Single sign-on (docs/teams.md, "Single sign-on"): an organisation's OpenID Connect
// connection (client secret sealed with the secret box), its e-mail domains, and the
// pending sign-ins. Every method that reads an organisation's rows takes its id.

export interface SsoConnectionRow {
  orgId: string;
  issuer: string;
  clientId: string;
  /** Clear text: opened from the sealed column. */
  clientSecret: string;
  defaultRole: OrgRole;
  ssoRequired: boolean;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SsoDomainRow {
  id: string;
  orgId: string;
  domain: string;
  verificationToken: string;
  verifiedAt: string | null;
  createdAt: string;
}

export interface PendingLogin {
  orgId: string;
  browserHash: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  expiresAt: string;
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/i.test(e?.message ?? '');
};

const toDomain = (r: Database['sso_domains']): SsoDomainRow => ({
  id: r.id,
  orgId: r.org_id,
  domain: r.domain,
  verificationToken: r.verification_token,
  verifiedAt: r.verified_at,
  createdAt: r.created_at,
});

export function ssoRepository(db: Kysely<Database>, box: SecretBox) {
  const toConnection = (r: Database['sso_connections']): SsoConnectionRow => ({
    orgId: r.org_id,
    issuer: r.issuer,
    clientId: r.client_id,
    clientSecret: openOrUnavailable(box, r.client_secret, "This organisation's single sign-on client secret is"),
    defaultRole: r.default_role as OrgRole,
    ssoRequired: r.sso_required === 1,
    enabled: r.enabled === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });

  return {
    /** After a rotation: client secrets sealed with the current key (docs/security.md "Channel secrets"). */
    resealClientSecrets: () => resealColumn(db, box, { table: 'sso_connections', key: 'org_id', column: 'client_secret' }),

    async connection(orgId: string): Promise<SsoConnectionRow | null> {
      const r = await db.selectFrom('sso_connections').selectAll().where('org_id', '=', orgId).executeTakeFirst();
      return r ? toConnection(r) : null;
    },

    async saveConnection(c: Omit<SsoConnectionRow, 'createdAt' | 'updatedAt'>, now: Date): Promise<SsoConnectionRow> {
      const at = now.toISOString();
      const values = {
        issuer: c.issuer,
        client_id: c.clientId,
        client_secret: box.seal(c.clientSecret),
        default_role: c.defaultRole,
        sso_required: c.ssoRequired ? 1 : 0,
        enabled: c.enabled ? 1 : 0,
        updated_at: at,
      };
      await db
        .insertInto('sso_connections')
        .values({ org_id: c.orgId, created_at: at, ...values })
        .onConflict((oc) => oc.column('org_id').doUpdateSet(values))
        .execute();
      return (await this.connection(c.orgId))!;
    },

    async deleteConnection(orgId: string): Promise<boolean> {
      const r = await db.deleteFrom('sso_connections').where('org_id', '=', orgId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async domains(orgId: string): Promise<SsoDomainRow[]> {
      const rows = await db.selectFrom('sso_domains').selectAll().where('org_id', '=', orgId).orderBy('domain').execute();
      return rows.map(toDomain);
    },

    async domain(orgId: string, id: string): Promise<SsoDomainRow | null> {
      const r = await db.selectFrom('sso_domains').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return r ? toDomain(r) : null;
    },

    /** Adds a domain to an organisation; null when it has it already, or holds `cap` domains. */
    async addDomain(d: { id: string; orgId: string; domain: string; token: string; now: Date }, cap: number): Promise<SsoDomainRow | 'taken' | 'full'> {
      return db.transaction().execute(async (trx) => {
        // The organisation's row lock: concurrent additions count one after another.
        await trx
          .updateTable('organisations')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', d.orgId)
          .execute();
        const { n } = await trx
          .selectFrom('sso_domains')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('org_id', '=', d.orgId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return 'full';
        const row = { id: d.id, org_id: d.orgId, domain: d.domain, verification_token: d.token, verified_at: null, created_at: d.now.toISOString() };
        const r = await trx
          .insertInto('sso_domains')
          .values(row)
          .onConflict((oc) => oc.columns(['org_id', 'domain']).doNothing())
          .executeTakeFirst();
        return Number(r.numInsertedOrUpdatedRows ?? 0) > 0 ? toDomain(row) : 'taken';
      });
    },

    /** Marks a domain verified; 'taken' when another organisation has it verified. */
    async markVerified(orgId: string, id: string, now: Date): Promise<'verified' | 'taken' | 'not_found'> {
      try {
        const r = await db
          .updateTable('sso_domains')
          .set({ verified_at: now.toISOString() })
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .executeTakeFirst();
        return Number(r.numUpdatedRows) > 0 ? 'verified' : 'not_found';
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },

    async deleteDomain(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('sso_domains').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** The organisation that verified a domain, with its connection (enabled or not), if any. */
    async byVerifiedDomain(domain: string): Promise<{ orgId: string; connection: SsoConnectionRow | null } | null> {
      const d = await db.selectFrom('sso_domains').select('org_id').where('domain', '=', domain).where('verified_at', 'is not', null).executeTakeFirst();
      if (!d) return null;
      return { orgId: d.org_id, connection: await this.connection(d.org_id) };
    },

    /**
     * Organisations that require SSO for this e-mail domain and in which the user is a
     * member, with the user's role there (password sign-in check).
     */
    async requiringSso(userId: string, domain: string): Promise<{ orgId: string; role: OrgRole }[]> {
      const rows = await db
        .selectFrom('sso_domains')
        .innerJoin('sso_connections', 'sso_connections.org_id', 'sso_domains.org_id')
        .innerJoin('memberships', 'memberships.org_id', 'sso_domains.org_id')
        .select(['sso_domains.org_id', 'memberships.role'])
        .where('sso_domains.domain', '=', domain)
        .where('sso_domains.verified_at', 'is not', null)
        .where('sso_connections.enabled', '=', 1)
        .where('sso_connections.sso_required', '=', 1)
        .where('memberships.user_id', '=', userId)
        .execute();
      return rows.map((r) => ({ orgId: r.org_id, role: r.role as OrgRole }));
    },

    async addPending(stateHash: string, p: PendingLogin, now: Date): Promise<void> {
      await db.deleteFrom('sso_pending_logins').where('expires_at', '<=', now.toISOString()).execute();
      await db
        .insertInto('sso_pending_logins')
        .values({
          state_hash: stateHash,
          browser_hash: p.browserHash,
          org_id: p.orgId,
          nonce: p.nonce,
          code_verifier: p.codeVerifier,
          return_to: p.returnTo,
          expires_at: p.expiresAt,
        })
        .execute();
    },

    async pending(stateHash: string): Promise<PendingLogin | null> {
      const r = await db.selectFrom('sso_pending_logins').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
      if (!r) return null;
      return { orgId: r.org_id, browserHash: r.browser_hash, nonce: r.nonce, codeVerifier: r.code_verifier, returnTo: r.return_to, expiresAt: r.expires_at };
    },

    /** Takes a pending sign-in once: true for the one caller whose delete removed it. */
    async consumePending(stateHash: string, browserHash: string): Promise<boolean> {
      const r = await db.deleteFrom('sso_pending_logins').where('state_hash', '=', stateHash).where('browser_hash', '=', browserHash).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type SsoRepository = ReturnType<typeof ssoRepository>;
