import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/db.ts';
import { eventsRepository } from '../../src/store/repositories/events-repository.ts';
import { uniqueName } from '../helpers/app.ts';
import { incident, incidentEvent } from '../helpers/records.ts';

// An upgraded store: the event head must start above every number the old column
// default ever issued, including numbers whose events were rolled back or pruned, so
// that no new event is numbered below a resume point a client or the dispatcher holds
// (docs/reliability.md, event order).

// One suite per file: its hooks belong to it when files share a process (docs/testing.md, "Batches").
describe('the event-order migration', () => {
  const schema = process.env.DATABASE_URL ? uniqueName('t') : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-event-order-'));
  const store = openStore({ databaseUrl: process.env.DATABASE_URL ?? null, databaseSchema: schema, dataDir });

  after(async () => {
    if (schema) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db);
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const row = (id: string) => {
    const rec = incident('github', id);
    return {
      type: 'incident.created',
      vendor: 'github',
      entity_kind: 'incident',
      entity_id: rec.id,
      occurred_at: '2026-01-01T00:00:00.000Z',
      payload: JSON.stringify(rec),
    };
  };

  test('new events are numbered above every number issued before the upgrade', async () => {
    if (schema) await sql`create schema ${sql.id(schema)}`.execute(store.db);
    const migrator = new Migrator({
      db: store.db,
      provider: migrationProvider(store.dialect),
      migrationTableSchema: schema ?? undefined,
      allowUnorderedMigrations: true,
    });
    const before = await migrator.migrateTo('0500-oauth');
    assert.equal(before.error, undefined);

    // Numbered by the old column default: 1, 2, 3.
    for (const id of ['a', 'b', 'c'])
      await store.db
        .insertInto('events')
        .values(row(id) as never)
        .execute();
    // PostgreSQL: a rolled-back insert used up number 4 (SQLite gives it back).
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('events')
          .values(row('d') as never)
          .execute();
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    // The newest event is gone (pruned): the highest number issued is no longer in the table.
    await store.db.deleteFrom('events').where('seq', '=', 3).execute();

    await store.migrate();
    const issued = store.dialect === 'postgres' ? 4 : 3;
    const e = await eventsRepository(store.db).append(store.db, incidentEvent('github', 'e'));
    assert.equal(e.seq, issued + 1);
    assert.equal(await eventsRepository(store.db).latestSeq(), issued + 1);
  });
});
