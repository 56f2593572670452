import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Event sequence numbers are handed out at the end of the appending transaction,
// under a row lock held until its commit (`event_head`, docs/reliability.md, event
// order): numbers then follow commit order, so a reader that sees a number sees
// every lower one, and no transaction can commit below a position a reader has
// passed. The head starts above every number ever issued by the old column
// default (the serial sequence, SQLite's AUTOINCREMENT record) and above every
// dispatcher cursor, so no new event is numbered below a stored resume point.
export function eventOrderMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('event_head')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('last_seq', 'bigint', (c) => c.notNull())
        .execute();
      const issued =
        dialect === 'postgres'
          ? sql<{ n: string | number | null }>`select case when is_called then last_value else 0 end as n from ${sql.raw(await serialSequence(db))}`
          : sql<{ n: string | number | null }>`select seq as n from sqlite_sequence where name = 'events'`;
      const seen = await Promise.all([
        issued.execute(db),
        sql<{ n: string | number | null }>`select max(seq) as n from events`.execute(db),
        sql<{ n: string | number | null }>`select max(seq) as n from alert_cursors`.execute(db),
      ]);
      const start = Math.max(0, ...seen.map((r) => Number(r.rows[0]?.n ?? 0)));
      await db.insertInto('event_head').values({ id: 1, last_seq: start }).execute();
      // Numbers come from the head only; the column default would bypass the lock.
      if (dialect === 'postgres') await sql`alter table events alter column seq drop default`.execute(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('event_head').execute();
    },
  };
}

async function serialSequence(db: Kysely<any>): Promise<string> {
  const r = await sql<{ name: string | null }>`select pg_get_serial_sequence('events', 'seq') as name`.execute(db);
  const name = r.rows[0]?.name;
  if (!name) throw new Error('events.seq has no sequence');
  return name;
}
