import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type AuditActor, type AuditLink, auditHash, GENESIS_HASH } from '../../domain/audit-chain.ts';
import type { Database } from '../schema.ts';

// The audit log (docs/teams.md, "Audit log"). Appending takes the organisation's
// `audit_heads` row lock first (an update on PostgreSQL, SQLite's write lock), so
// instances writing at once append one after the other and the chain never forks.

export interface AuditQuery {
  orgId: string;
  /** Entries with seq below this (paging backwards from the newest). */
  before?: number;
  limit: number;
  action?: string;
  actorKind?: string;
  since?: string;
  until?: string;
}

type Row = Database['audit_log'];

export interface ChainHead {
  seq: number;
  hash: string;
  floorSeq: number;
  floorHash: string;
}

const toLink = (r: Row): AuditLink => ({
  orgId: r.org_id,
  seq: Number(r.seq),
  id: r.id,
  at: r.at,
  actor: { kind: r.actor_kind as AuditActor['kind'], id: r.actor_id, label: r.actor_label, address: r.address },
  action: r.action,
  target: r.target,
  details: r.details,
  prevHash: r.prev_hash,
  hash: r.hash,
});

export function auditRepository(db: Kysely<Database>) {
  return {
    async append(e: { orgId: string; at: string; actor: AuditActor; action: string; target: string; details: string }): Promise<AuditLink> {
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('audit_heads')
          .values({ org_id: e.orgId, seq: 0, hash: GENESIS_HASH, floor_seq: 0, floor_hash: GENESIS_HASH })
          .onConflict((oc) => oc.column('org_id').doUpdateSet((eb) => ({ seq: eb.ref('audit_heads.seq') })))
          .execute();
        const head = await trx.selectFrom('audit_heads').select(['seq', 'hash']).where('org_id', '=', e.orgId).executeTakeFirstOrThrow();
        const fields = { ...e, seq: Number(head.seq) + 1, id: randomUUID() };
        const hash = auditHash(head.hash, fields);
        await trx
          .insertInto('audit_log')
          .values({
            org_id: e.orgId,
            seq: fields.seq,
            id: fields.id,
            at: e.at,
            actor_kind: e.actor.kind,
            actor_id: e.actor.id,
            actor_label: e.actor.label,
            address: e.actor.address,
            action: e.action,
            target: e.target,
            details: e.details,
            prev_hash: head.hash,
            hash,
          })
          .execute();
        await trx.updateTable('audit_heads').set({ seq: fields.seq, hash }).where('org_id', '=', e.orgId).execute();
        return { ...fields, prevHash: head.hash, hash };
      });
    },

    /** Newest first. */
    async list(q: AuditQuery): Promise<AuditLink[]> {
      let query = db.selectFrom('audit_log').selectAll().where('org_id', '=', q.orgId);
      if (q.before !== undefined) query = query.where('seq', '<', q.before);
      if (q.action) query = query.where('action', '=', q.action);
      if (q.actorKind) query = query.where('actor_kind', '=', q.actorKind);
      if (q.since) query = query.where('at', '>=', q.since);
      if (q.until) query = query.where('at', '<', q.until);
      const rows = await query.orderBy('seq', 'desc').limit(q.limit).execute();
      return rows.map(toLink);
    },

    /** Every organisation with a chain (or entries), for verification. */
    async chainedOrgs(): Promise<string[]> {
      const heads = await db.selectFrom('audit_heads').select('org_id').execute();
      const logged = await db.selectFrom('audit_log').select('org_id').distinct().execute();
      return [...new Set([...heads, ...logged].map((r) => r.org_id))].sort();
    },

    /** One organisation's whole chain in order, with its head, in pages of `batch`. */
    async *chain(orgId: string, batch = 1000): AsyncGenerator<AuditLink[]> {
      let after = 0;
      for (;;) {
        const rows = await db.selectFrom('audit_log').selectAll().where('org_id', '=', orgId).where('seq', '>', after).orderBy('seq').limit(batch).execute();
        if (!rows.length) return;
        yield rows.map(toLink);
        after = Number(rows.at(-1)!.seq);
      }
    },

    async head(orgId: string): Promise<ChainHead | null> {
      const r = await db.selectFrom('audit_heads').selectAll().where('org_id', '=', orgId).executeTakeFirst();
      return r ? { seq: Number(r.seq), hash: r.hash, floorSeq: Number(r.floor_seq), floorHash: r.floor_hash } : null;
    },

    /**
     * Drops entries older than `before` (retention). The newest dropped entry becomes the
     * head's floor, in the same transaction, so the chain stays verifiable from there and a
     * row removed any other way is still found.
     */
    async prune(orgId: string, before: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('audit_heads')
          .set((eb) => ({ seq: eb.ref('seq') }))
          .where('org_id', '=', orgId)
          .execute();
        const last = await trx
          .selectFrom('audit_log')
          .select(['seq', 'hash'])
          .where('org_id', '=', orgId)
          .where('at', '<', before)
          .orderBy('seq', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (!last) return 0;
        const r = await trx.deleteFrom('audit_log').where('org_id', '=', orgId).where('seq', '<=', last.seq).executeTakeFirst();
        await trx.updateTable('audit_heads').set({ floor_seq: last.seq, floor_hash: last.hash }).where('org_id', '=', orgId).execute();
        return Number(r.numDeletedRows);
      });
    },
  };
}

export type AuditRepository = ReturnType<typeof auditRepository>;
