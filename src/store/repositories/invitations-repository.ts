import type { Kysely } from 'kysely';
import type { OrgRole } from '../../domain/org-roles.ts';
import type { Database } from '../schema.ts';

// Invitations to an organisation (docs/teams.md, "Invitations"): found by the digest of
// the link's token, decided once. Accepting adds the membership and closes the
// invitation in one transaction, with a conditional update, so a link used twice at
// once makes one member.

export interface InvitationRow {
  id: string;
  orgId: string;
  orgName: string;
  email: string;
  role: OrgRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  outcome: 'accepted' | 'declined' | 'revoked' | null;
}

export type InvitationDecision = 'done' | 'already_decided' | 'already_member';

export function invitationsRepository(db: Kysely<Database>) {
  const base = () =>
    db
      .selectFrom('invitations')
      .innerJoin('organisations', 'organisations.id', 'invitations.org_id')
      .leftJoin('users', 'users.id', 'invitations.invited_by')
      .select([
        'invitations.id',
        'invitations.org_id',
        'organisations.name as org_name',
        'invitations.email',
        'invitations.role',
        'users.email as invited_by',
        'invitations.created_at',
        'invitations.expires_at',
        'invitations.outcome',
      ]);
  type Selected = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
  const toRow = (r: Selected): InvitationRow => ({
    id: r.id,
    orgId: r.org_id,
    orgName: r.org_name,
    email: r.email,
    role: r.role as OrgRole,
    invitedBy: r.invited_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    outcome: r.outcome as InvitationRow['outcome'],
  });

  return {
    async create(i: { id: string; orgId: string; email: string; role: OrgRole; tokenHash: string; invitedBy: string | null; now: Date; expiresAt: Date }) {
      await db
        .insertInto('invitations')
        .values({
          id: i.id,
          org_id: i.orgId,
          email: i.email,
          role: i.role,
          token_hash: i.tokenHash,
          invited_by: i.invitedBy,
          created_at: i.now.toISOString(),
          expires_at: i.expiresAt.toISOString(),
          outcome: null,
          decided_at: null,
        })
        .execute();
    },

    async findByTokenHash(tokenHash: string): Promise<InvitationRow | null> {
      const r = await base().where('invitations.token_hash', '=', tokenHash).executeTakeFirst();
      return r ? toRow(r) : null;
    },

    /** Open (undecided, unexpired) invitations of an organisation, newest first. */
    async listOpen(orgId: string, now: Date): Promise<InvitationRow[]> {
      const rows = await base()
        .where('invitations.org_id', '=', orgId)
        .where('invitations.outcome', 'is', null)
        .where('invitations.expires_at', '>', now.toISOString())
        .orderBy('invitations.created_at', 'desc')
        .execute();
      return rows.map(toRow);
    },

    /** Open invitations of one organisation for one address (a new one replaces them). */
    async countOpen(orgId: string, now: Date): Promise<number> {
      const r = await db
        .selectFrom('invitations')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('org_id', '=', orgId)
        .where('outcome', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Closes an open invitation (declined or revoked); false when it was decided already. */
    async close(id: string, outcome: 'declined' | 'revoked', now: Date): Promise<boolean> {
      const r = await db
        .updateTable('invitations')
        .set({ outcome, decided_at: now.toISOString() })
        .where('id', '=', id)
        .where('outcome', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Accepts: closes the invitation and adds the member, together or not at all. */
    async accept(id: string, userId: string, now: Date): Promise<InvitationDecision> {
      return db.transaction().execute(async (trx) => {
        const at = now.toISOString();
        const r = await trx
          .updateTable('invitations')
          .set({ outcome: 'accepted', decided_at: at })
          .where('id', '=', id)
          .where('outcome', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return 'already_decided';
        const inv = await trx.selectFrom('invitations').select(['org_id', 'role']).where('id', '=', id).executeTakeFirstOrThrow();
        const added = await trx
          .insertInto('memberships')
          .values({ org_id: inv.org_id, user_id: userId, role: inv.role, created_at: at })
          .onConflict((oc) => oc.columns(['org_id', 'user_id']).doNothing())
          .executeTakeFirst();
        return Number(added.numInsertedOrUpdatedRows ?? 0) > 0 ? 'done' : 'already_member';
      });
    },
  };
}

export type InvitationsRepository = ReturnType<typeof invitationsRepository>;
