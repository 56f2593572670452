import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// SCIM bearer tokens of an organisation (docs/teams.md, "SCIM"): only the SHA-256 of a
// token is stored. Creating counts the active tokens under the organisation's row lock,
// so concurrent creations never pass the cap.

export interface ScimTokenRow {
  id: string;
  orgId: string;
  name: string;
  prefix: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

const toRow = (r: Database['scim_tokens']): ScimTokenRow => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  prefix: r.prefix,
  createdBy: r.created_by,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

export function scimTokensRepository(db: Kysely<Database>) {
  return {
    /** Adds a token unless the organisation already has `cap` active ones (then null). */
    async create(
      t: { id: string; orgId: string; name: string; tokenHash: string; prefix: string; createdBy: string | null; now: Date },
      cap: number,
    ): Promise<ScimTokenRow | null> {
      const at = t.now.toISOString();
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('organisations')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', t.orgId)
          .execute();
        const { n } = await trx
          .selectFrom('scim_tokens')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('org_id', '=', t.orgId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return null;
        const row = {
          id: t.id,
          org_id: t.orgId,
          name: t.name,
          token_hash: t.tokenHash,
          prefix: t.prefix,
          created_by: t.createdBy,
          created_at: at,
          last_used_at: null,
          revoked_at: null,
        };
        await trx.insertInto('scim_tokens').values(row).execute();
        return toRow(row);
      });
    },

    async listActive(orgId: string): Promise<ScimTokenRow[]> {
      const rows = await db
        .selectFrom('scim_tokens')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRow);
    },

    async revoke(orgId: string, id: string, now: Date): Promise<ScimTokenRow | null> {
      const row = await db
        .selectFrom('scim_tokens')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row) return null;
      const r = await db
        .updateTable('scim_tokens')
        .set({ revoked_at: now.toISOString() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0 ? toRow(row) : null;
    },

    /** The active token with this hash. */
    async findActive(tokenHash: string): Promise<ScimTokenRow | null> {
      const r = await db.selectFrom('scim_tokens').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
      return r ? toRow(r) : null;
    },

    async touch(id: string, now: Date): Promise<void> {
      await db.updateTable('scim_tokens').set({ last_used_at: now.toISOString() }).where('id', '=', id).execute();
    },
  };
}

export type ScimTokensRepository = ReturnType<typeof scimTokensRepository>;
