import type { Kysely } from 'kysely';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database } from '../schema.ts';
import { insertOrganisation } from './organisations-repository.ts';

// Accounts: a person who signs in. What they own lives in organisations
// (organisations-repository.ts); every account has a personal one, made with it.

export interface UserRow {
  id: string;
  email: string;
  createdAt: string;
}

export interface UserWithPassword extends UserRow {
  passwordHash: string;
}

const toUser = (r: Pick<Database['users'], 'id' | 'email' | 'created_at'>): UserRow => ({
  id: r.id,
  email: r.email,
  createdAt: r.created_at,
});

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/i.test(e?.message ?? '');
};

export function usersRepository(db: Kysely<Database>) {
  return {
    /**
     * Inserts a user with their personal organisation (on `plan`, with the user's id:
     * docs/teams.md "Data model"); returns null when the email is taken.
     */
    async create(u: { id: string; email: string; passwordHash: string; plan: UserPlan; now: Date }): Promise<UserRow | null> {
      const at = u.now.toISOString();
      try {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('users').values({ id: u.id, email: u.email, password_hash: u.passwordHash, created_at: at, updated_at: at }).execute();
          await insertOrganisation(trx, { id: u.id, name: 'Personal', plan: u.plan, personal: true, ownerId: u.id, now: u.now });
        });
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
      return { id: u.id, email: u.email, createdAt: at };
    },

    /** Every account, oldest first (operator CLI). */
    async list(): Promise<UserRow[]> {
      const rows = await db.selectFrom('users').select(['id', 'email', 'created_at']).orderBy('created_at').orderBy('id').execute();
      return rows.map(toUser);
    },

    async findById(id: string): Promise<UserRow | null> {
      const r = await db.selectFrom('users').select(['id', 'email', 'created_at']).where('id', '=', id).executeTakeFirst();
      return r ? toUser(r) : null;
    },

    async findByEmailWithPassword(email: string): Promise<UserWithPassword | null> {
      const r = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return r ? { ...toUser(r), passwordHash: r.password_hash } : null;
    },

    async findByEmail(email: string): Promise<UserRow | null> {
      const r = await db.selectFrom('users').select(['id', 'email', 'created_at']).where('email', '=', email).executeTakeFirst();
      return r ? toUser(r) : null;
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
