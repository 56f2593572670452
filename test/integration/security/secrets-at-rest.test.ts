import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { pagerDutyReply, startReceiver } from '../../helpers/receivers.ts';
import { send } from '../../helpers/users.ts';
import { fullAccount, ROUTING_KEY } from './support.ts';

// Secrets at rest: after a user has a password, a session, an API key, a webhook,
// a PagerDuty routing key, a personal feed and an MCP OAuth connection (client
// secret, code, access and refresh tokens), every text/blob column of every table
// (found through the database catalog, so new tables are covered too), the raw
// SQLite files and every Redis key under the app's prefix are searched for each
// secret. Only the two secrets the delivery worker must use in clear may be
// found, and only in their own columns (docs/security.md, "Not done").

/** `table.column` -> every value of that column, as text. */
async function dumpDatabase(t: TestApp): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const db = t.store.db;
  const add = (table: string, row: Record<string, unknown>) => {
    for (const [column, value] of Object.entries(row)) {
      if (value === null || value === undefined) continue;
      const text = Buffer.isBuffer(value) ? value.toString('latin1') : value instanceof Date ? value.toISOString() : String(value);
      const k = `${table}.${column}`;
      out.set(k, [...(out.get(k) ?? []), text]);
    }
  };
  if (t.store.dialect === 'sqlite') {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    assert.ok(tables.rows.length >= 20, 'the catalog lists the tables');
    for (const { name } of tables.rows) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.id(name)}`.execute(db);
      for (const r of rows.rows) add(name, r);
    }
  } else {
    // Every column of every table of the app's schema, cast to text (bytea as hex and as text).
    const cols = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
    const byTable = new Map<string, { column_name: string; data_type: string }[]>();
    for (const c of cols.rows) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c]);
    assert.ok(byTable.size >= 20, 'the catalog lists the tables');
    for (const [table, columns] of byTable) {
      const select = columns.map((c) =>
        c.data_type === 'bytea'
          ? sql`convert_from(${sql.id(c.column_name)}, 'SQL_ASCII') as ${sql.id(c.column_name)}`
          : sql`${sql.id(c.column_name)}::text as ${sql.id(c.column_name)}`,
      );
      const rows = await sql<Record<string, unknown>>`select ${sql.join(select)} from ${sql.id(table)}`.execute(db);
      for (const r of rows.rows) add(table, r);
    }
  }
  return out;
}

/** Every key and value under the app's Redis prefix (empty without Redis). */
async function dumpRedis(t: TestApp): Promise<string[]> {
  if (!t.config.redisUrl) return [];
  const redis = new Redis(t.config.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const out: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${t.config.redisPrefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        out.push(key);
        const type = await redis.type(key);
        if (type === 'string') out.push((await redis.getBuffer(key))?.toString('latin1') ?? '');
        else if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') out.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') out.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') out.push(JSON.stringify(await redis.zrange(key, '0', '-1', 'WITHSCORES')));
        else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
    return out;
  } finally {
    redis.disconnect();
  }
}

test('no password, session token, API key, feed token, OAuth secret or channel secret is stored in clear (database, SQLite files, Redis)', async () => {
  const hook = await startReceiver();
  const pd = await startReceiver(pagerDutyReply);
  const t = await startApp({
    env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', PAGERDUTY_EVENTS_URL: `${pd.url}/v2/enqueue`, AUTH_CACHE_SECONDS: '0' },
  });
  try {
    const a = await fullAccount(t, { webhookUrl: `${hook.url}/hook` });
    const headers = { 'x-api-key': a.apiKey };
    // Use every credential once, so whatever is written on use (lastUsedAt, counters,
    // cache entries, delivery rows) is there too.
    assert.equal((await getJson(`${t.api}/incidents`, { headers })).status, 200);
    assert.equal((await getJson(`${t.api}/incidents`, { headers: { authorization: `Bearer ${a.apiKey}` } })).status, 200);
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie: a.cookie } })).status, 200);
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${a.feedToken}.rss`)).status, 200);
    for (const channel of ['webhook', 'pagerduty']) {
      const r = await send(`${t.api}/notification-preferences/test`, 'POST', headers, { channel });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.delivered, true, `${channel}: ${JSON.stringify(r.body)}`);
    }
    assert.equal(hook.requests.length, 1);
    assert.match(String(hook.requests[0]!.headers['webhook-signature']), /^v1,/);
    assert.equal(JSON.parse(pd.requests[0]!.body).routing_key, ROUTING_KEY);
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.oauth.accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    assert.equal(mcp.status, 200);
    await mcp.arrayBuffer();

    const columns = await dumpDatabase(t);
    const redis = await dumpRedis(t);
    const files =
      t.store.dialect === 'sqlite'
        ? fs
            .readdirSync(t.config.dataDir)
            .filter((f) => f.startsWith('vendor-status.sqlite'))
            .map((f) => fs.readFileSync(path.join(t.config.dataDir, f)).toString('latin1'))
        : [];
    if (t.store.dialect === 'sqlite') assert.ok(files.length >= 1, 'the SQLite files were read');
    if (t.config.redisUrl) assert.ok(redis.length > 0, 'the Redis keys were read (rate-limit counters at least)');
    const where = (secret: string) => [...columns].filter(([, values]) => values.some((v) => v.includes(secret))).map(([k]) => k);

    // Sanity: the dump sees the user's rows.
    assert.ok(where(a.email).includes('users.email'));
    assert.ok(where(a.id).includes('api_keys.user_id'));

    for (const [name, secret] of Object.entries(a.hidden)) {
      assert.ok(secret.length >= 16, name);
      assert.deepEqual(where(secret), [], `${name} is stored in clear`);
      assert.ok(!redis.some((v) => v.includes(secret)), `${name} is in Redis`);
      assert.ok(!files.some((f) => f.includes(secret)), `${name} is in the SQLite files`);
    }
    // What is stored instead: a scrypt hash, SHA-256 digests.
    const user = await t.store.db.selectFrom('users').select('password_hash').where('id', '=', a.id).executeTakeFirstOrThrow();
    assert.match(user.password_hash, /^scrypt\$\d+\$8\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);

    // The channel secrets sent on every delivery are sealed (AES-256-GCM, key id prefix).
    for (const [name, secret] of Object.entries(a.channelSecrets)) {
      assert.deepEqual(where(secret), [], `${name} is stored in clear`);
      assert.ok(!redis.some((v) => v.includes(secret)), `${name} is in Redis`);
      assert.ok(!files.some((f) => f.includes(secret)), `${name} is in the SQLite files`);
    }
    const row = await t.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', a.id).executeTakeFirstOrThrow();
    for (const c of ['webhook_secret', 'pagerduty_routing_key', 'channel_secrets'] as const)
      assert.match(String(row[c]), /^sb1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/, c);
  } finally {
    await t.close();
    await hook.close();
    await pd.close();
  }
});
