import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';

// An event's record is stored once for all its alerts (migration 0950,
// docs/alerts.md "Dispatcher"), and rows written before that still read with
// the record they carry.

describe('alert payloads: once per event', () => {
  let t: TestApp;
  const users: TestUser[] = [];

  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
    for (let i = 0; i < 3; i++) {
      const u = await createUser(t, 'pro');
      assert.equal((await send(`${t.api}/watchlist/heroku`, 'POST', u.headers)).status, 200);
      assert.equal((await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { rss: { enabled: true } })).status, 200);
      users.push(u);
    }
  });
  after(async () => {
    await t?.close();
  });

  test('rows of one event reference one stored record; every reader still sees it', async () => {
    const seq = await emit(t, 'incident.created', incident('heroku', { title: 'Dynos restarting' }));
    await t.app.alerts.runOnce();
    const db = t.store.db;
    const rows = await db.selectFrom('deliveries').select(['payload', 'event_seq', 'channel']).where('vendor', '=', 'heroku').execute();
    assert.equal(rows.length, 6, 'in-app and feed rows of three users');
    assert.ok(
      rows.every((r) => r.payload === ''),
      'no row carries a copy',
    );
    const stored = await db.selectFrom('alert_payloads').selectAll().where('event_seq', '=', Number(rows[0]!.event_seq)).execute();
    assert.equal(stored.length, 1);
    assert.match(stored[0]!.payload, /Dynos restarting/);
    assert.ok(seq !== undefined);
    for (const u of users) {
      const list = await getJson(`${t.api}/notifications?limit=10`, { headers: u.headers });
      assert.deepEqual(
        list.body.items.map((i: { title: string }) => i.title),
        ['Dynos restarting'],
      );
    }
  });

  test('a row written before the change (its own copy) reads as before', async () => {
    const u = users[0]!;
    const at = new Date().toISOString();
    const record = incident('heroku', { title: 'Old row record' });
    await t.store.db
      .insertInto('deliveries')
      .values({
        id: 'dlv_oldstyle0000000000000000000001',
        event_seq: 999_999,
        org_id: u.id,
        channel: 'in_app',
        event_type: 'incident.created',
        vendor: 'heroku',
        entity_id: record.id,
        payload: JSON.stringify(record),
        route_id: '',
        occurred_at: at,
        status: 'succeeded',
        attempts: 0,
        next_attempt_at: null,
        lease_owner: null,
        last_status_code: null,
        last_error: null,
        is_test: 0,
        receiver: null,
        read_at: null,
        created_at: at,
        updated_at: at,
        completed_at: at,
      })
      .execute();
    const list = await getJson(`${t.api}/notifications?limit=10`, { headers: u.headers });
    assert.equal(list.body.items[0].title, 'Old row record');
  });
});
