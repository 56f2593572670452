import type { Kysely } from 'kysely';
import type { BoardsTable, Database } from '../schema.ts';
import { fromJson, toJson } from './json.ts';

// Public status boards (docs/boards.md). Every read and delete by id is scoped to
// the owner; the public side finds a board only by the hash of its token.

export interface BoardRecord {
  id: string;
  orgId: string;
  title: string;
  vendors: string[];
  frameAncestors: string[];
  createdAt: string;
}

const toRecord = (r: BoardsTable): BoardRecord => ({
  id: r.id,
  orgId: r.org_id,
  title: r.title,
  vendors: fromJson<string[]>(r.vendors, []),
  frameAncestors: fromJson<string[]>(r.frame_ancestors, []),
  createdAt: r.created_at,
});

export function boardsRepository(db: Kysely<Database>) {
  return {
    async create(b: BoardRecord & { tokenHash: string }): Promise<BoardRecord> {
      await db
        .insertInto('boards')
        .values({
          id: b.id,
          org_id: b.orgId,
          token_hash: b.tokenHash,
          title: b.title,
          vendors: toJson(b.vendors),
          frame_ancestors: toJson(b.frameAncestors),
          created_at: b.createdAt,
        })
        .execute();
      return { id: b.id, orgId: b.orgId, title: b.title, vendors: b.vendors, frameAncestors: b.frameAncestors, createdAt: b.createdAt };
    },

    async listByOrg(orgId: string): Promise<BoardRecord[]> {
      const rows = await db.selectFrom('boards').selectAll().where('org_id', '=', orgId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toRecord);
    },

    async countByOrg(orgId: string): Promise<number> {
      const r = await db
        .selectFrom('boards')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    /** Deletes the owner's board; false when there is none with that id for this organisation. */
    async delete(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('boards').where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async findByTokenHash(hash: string): Promise<BoardRecord | null> {
      const row = await db.selectFrom('boards').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      return row ? toRecord(row) : null;
    },
  };
}

export type BoardsRepository = ReturnType<typeof boardsRepository>;
