import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/infra/config.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// Retention of early-warning signals (docs/early-warning.md "Retention") over the real store:
// signals that ended (cleared, dismissed, confirmed and long quiet) go with their evidence and
// transitions once older than SIGNAL_RETENTION_DAYS; younger ones stay; a suspected signal is
// never forgotten, however old; the setting refuses values under its floor.

const DAY = 86_400_000;

describe('signal retention', () => {
  const clock = new TestClock(new Date('2026-01-05T12:00:00Z'));
  let t: TestApp;
  let cookie: string;
  let orgId: string;
  const s = () => ({ cookie, origin: t.url });
  const ew = () => t.app.services.earlyWarning.signals;
  const db = () => t.store.db;

  /** Opens a signal about `vendor` with an inbound and a report observation (agreement). */
  async function open(vendor: string, components: string[] = []) {
    await ew().observe(orgId, { source: 'inbound', vendor, components, strength: 0.7, summary: `${vendor} 5xx`, actor: 'msg_x' });
    const r = await ew().observe(orgId, { source: 'report', vendor, strength: 0.5, summary: 'we see it too', actor: 'user:u1' });
    assert.equal(r.signal?.state, 'suspected', JSON.stringify(r));
    return r.signal!.id;
  }
  const count = async (table: 'ew_signals' | 'ew_observations' | 'ew_transitions', col: 'id' | 'signal_id', ids: string[]) =>
    (await db().selectFrom(table).select(col).where(col, 'in', ids).execute()).length;

  before(async () => {
    t = await startApp({ clock, env: { DELIVER: 'off', SIGNAL_RETENTION_DAYS: '90' } });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Retention team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
  });
  after(async () => {
    await t?.close();
  });

  test('SIGNAL_RETENTION_DAYS: 180 by default, at least 90', () => {
    assert.equal(loadConfig({}).signalRetentionDays, 180);
    assert.equal(loadConfig({ SIGNAL_RETENTION_DAYS: '90' }).signalRetentionDays, 90);
    assert.throws(() => loadConfig({ SIGNAL_RETENTION_DAYS: '89' }), /SIGNAL_RETENTION_DAYS/);
    assert.throws(() => loadConfig({ SIGNAL_RETENTION_DAYS: '0' }), /SIGNAL_RETENTION_DAYS/);
    assert.throws(() => loadConfig({ SIGNAL_RETENTION_DAYS: '-5' }), /SIGNAL_RETENTION_DAYS/);
    assert.throws(() => loadConfig({ SIGNAL_RETENTION_DAYS: '1e9' }), /SIGNAL_RETENTION_DAYS/);
  });

  test('ended signals older than the retention go with their evidence and transitions; open and younger ones stay', async () => {
    // Old: one cleared, one dismissed, one confirmed (all ended more than 90 days before the prune).
    const cleared = await open('fastly');
    const dismissed = await open('dropbox');
    const dis = await send(`${t.url}/api/v1/orgs/${orgId}/signals/${dismissed}/dismiss`, 'POST', s(), { reason: 'our proxy' });
    assert.equal(dis.status, 200, JSON.stringify(dis.body));
    const confirmed = await open('github', ['Actions']);
    const at = clock.now().toISOString();
    await emit(t, 'incident.created', { ...incident('github', { components: ['Actions'], id: 'gh-old' }), startedAt: at }, at);
    assert.equal((await t.app.earlyWarning.runOnce()).confirmed, 1);
    clock.advance(31 * 60_000);
    assert.equal((await t.app.earlyWarning.runOnce()).cleared, 1, 'the fastly signal clears');
    const old = [cleared, dismissed, confirmed];
    assert.equal(await count('ew_observations', 'signal_id', old), 6);
    assert.ok((await count('ew_transitions', 'signal_id', old)) >= 6);

    // 60 days later: one that ends then (cleared), and one still suspected whose last
    // observation is made old by hand (no sweep runs after it, so nothing clears it).
    clock.advance(60 * DAY);
    const younger = await open('slack');
    clock.advance(31 * 60_000);
    assert.equal((await t.app.earlyWarning.runOnce()).cleared, 1, 'the slack signal clears');
    const stale = await open('stripe');
    await db()
      .updateTable('ew_signals')
      .set({ last_observed_at: '2025-01-01T00:00:00.000Z', opened_at: '2025-01-01T00:00:00.000Z' })
      .where('id', '=', stale)
      .execute();
    // 89 days after the old ones ended: nothing is past the retention yet.
    clock.advance(29 * DAY - 40 * 60_000);
    assert.deepEqual(await ew().prune(), { signals: 0, observations: 0 });
    clock.advance(2 * DAY);
    const pruned = await ew().prune();
    assert.deepEqual(pruned, { signals: 3, observations: 6 });
    assert.equal(await count('ew_signals', 'id', old), 0);
    assert.equal(await count('ew_observations', 'signal_id', old), 0);
    assert.equal(await count('ew_transitions', 'signal_id', old), 0);
    // (Read from the store: the session of 91 days ago has expired.)
    const left = await db().selectFrom('ew_signals').select(['id', 'state']).where('org_id', '=', orgId).execute();
    assert.deepEqual(left.map((x) => x.id).sort(), [younger, stale].sort());
    assert.equal(left.find((x) => x.id === stale)!.state, 'suspected');
    assert.equal(await count('ew_observations', 'signal_id', [younger]), 2, 'a kept signal keeps its evidence');

    // A suspected signal is never pruned, however old: far past any retention, it stays.
    clock.advance(3650 * DAY);
    await ew().prune();
    assert.equal(await count('ew_signals', 'id', [stale]), 1);
    assert.equal(await count('ew_signals', 'id', [younger]), 0);
  });
});
