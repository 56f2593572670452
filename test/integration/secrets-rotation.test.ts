import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { keyIdOf } from '../../src/infra/secret-box.ts';
import { getJson, startApp } from '../helpers/app.ts';
import { pagerDutyReply, startReceiver } from '../helpers/receivers.ts';
import { createUser, send } from '../helpers/users.ts';

// docs/security.md "Channel secrets": secrets stored in clear before encryption
// at rest are sealed at start-up, and after SECRETS_KEY is rotated (old key in
// SECRETS_KEY_PREVIOUS) every value is read and rewritten with the new key.

const ROUTING_KEY = 'R0tat10nKeyF0rPagerDutyTest00042';

test('clear secrets are sealed at start-up; a rotated key re-seals everything and alerts still go out', async () => {
  const k1 = randomBytes(32).toString('hex');
  const k2 = randomBytes(32).toString('hex');
  const pd = await startReceiver(pagerDutyReply);
  const env = { DELIVER: 'off', PAGERDUTY_EVENTS_URL: `${pd.url}/v2/enqueue` };
  const a = await startApp({ env: { ...env, SECRETS_KEY: k1 } });
  let b: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    const u = await createUser(a);
    const h = u.headers;
    assert.equal((await send(`${a.api}/notification-preferences`, 'PUT', h, { pagerduty: { enabled: true, routing_key: ROUTING_KEY } })).status, 200);
    const row = () => a.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', u.id).executeTakeFirstOrThrow();
    assert.match(String((await row()).pagerduty_routing_key), new RegExp(`^sb1:${keyIdOf(Buffer.from(k1, 'hex'))}:`));

    // A row as written before encryption at rest: the key in clear.
    await a.store.db.updateTable('notification_preferences').set({ pagerduty_routing_key: ROUTING_KEY }).where('org_id', '=', u.id).execute();

    // Next start: new key, old key still accepted for reading.
    b = await startApp({ shareStoreWith: a, env: { ...env, SECRETS_KEY: k2, SECRETS_KEY_PREVIOUS: k1 } });
    const after = await row();
    assert.match(String(after.pagerduty_routing_key), new RegExp(`^sb1:${keyIdOf(Buffer.from(k2, 'hex'))}:`));
    assert.ok(!String(after.pagerduty_routing_key).includes(ROUTING_KEY));
    const got = await getJson(`${b.api}/notification-preferences`, { headers: h });
    assert.equal(got.body.preferences.pagerduty.routing_key, `****${ROUTING_KEY.slice(-4)}`);
    const sentTest = await send(`${b.api}/notification-preferences/test`, 'POST', h, { channel: 'pagerduty' });
    assert.equal(sentTest.body.delivered, true, JSON.stringify(sentTest.body));
    assert.equal(JSON.parse(pd.requests.at(-1)!.body).routing_key, ROUTING_KEY);
  } finally {
    await b?.close();
    await a.close();
    await pd.close();
  }
});
