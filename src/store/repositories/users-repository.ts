import type { Kysely } from 'kysely';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database } from '../schema.ts';

export interface UserRow {
  id: string;
  email: string;
  plan: UserPlan;
  createdAt: string;
}

export interface UserWithPassword extends UserRow {
  passwordHash: string;
}

const toUser = (r: Pick<Database['users'], 'id' | 'email' | 'plan' | 'created_at'>): UserRow => ({
  id: r.id,
  email: r.email,
  plan: r.plan as UserPlan,
  createdAt: r.created_at,
});

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/i.test(e?.message ?? '');
};

export function usersRepository(db: Kysely<Database>) {
  return {
    /** Inserts a user; returns null when the email is taken. */
    async create(u: { id: string; email: string; passwordHash: string; plan: UserPlan; now: Date }): Promise<UserRow | null> {
      const at = u.now.toISOString();
      try {
        await db
          .insertInto('users')
          .values({ id: u.id, email: u.email, password_hash: u.passwordHash, plan: u.plan, created_at: at, updated_at: at })
          .execute();
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
      return { id: u.id, email: u.email, plan: u.plan, createdAt: at };
    },

    /** Every account, oldest first (operator CLI). */
    async list(): Promise<UserRow[]> {
      const rows = await db.selectFrom('users').select(['id', 'email', 'plan', 'created_at']).orderBy('created_at').orderBy('id').execute();
      return rows.map(toUser);
    },

    async findById(id: string): Promise<UserRow | null> {
      const r = await db.selectFrom('users').select(['id', 'email', 'plan', 'created_at']).where('id', '=', id).executeTakeFirst();
      return r ? toUser(r) : null;
    },

    async findByEmailWithPassword(email: string): Promise<UserWithPassword | null> {
      const r = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return r ? { ...toUser(r), passwordHash: r.password_hash } : null;
    },

    /** Account e-mail addresses by user id (the e-mail channel's default, the Slack lookup). */
    async emailsOf(userIds: string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      const ids = [...new Set(userIds)];
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids.slice(i, i + 500)).execute();
        for (const r of rows) out.set(r.id, r.email);
      }
      return out;
    },

    /** Returns false when no user has that email. */
    async setPlan(email: string, plan: UserPlan, now: Date): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ plan, updated_at: now.toISOString() })
        .where('email', '=', email)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
