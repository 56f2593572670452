import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { userWithKey } from '../../helpers/access.ts';
import { commitEvents, openStream } from '../../helpers/stream.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';

// GET /incidents/stream with a real SSE client (docs/stream.md).

const path = '/incidents/stream';

describe('incident stream', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 100000, perDay: 1000000, concurrentStreams: 50 } }) } });
    // Incidents for the snapshot: two of github (one resolved), one of cloudflare.
    const repos = t.repos;
    const { incident } = await import('../../helpers/records.ts');
    await repos.incidents.upsert(incident('github', 'snap-a', { startedAt: new Date(Date.now() - 7_200_000).toISOString() }), 'fa');
    await repos.incidents.upsert(incident('github', 'snap-b', { status: 'resolved' }), 'fb');
    await repos.incidents.upsert(incident('cloudflare', 'snap-c'), 'fc');
  });
  after(async () => t.close());

  test('answers text/event-stream with retry, no buffering, no cache, and a snapshot first', async () => {
    const res = await fetch(`${t.api}${path}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    assert.equal(res.headers.get('content-encoding'), null);
    assert.equal(res.headers.get('x-cache'), null);
    assert.match(res.headers.get('cache-control')!, /no-cache/);
    assert.ok(res.headers.get('ratelimit'), 'metered like any endpoint');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: snapshot')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    assert.match(text, /^retry: 5000\n\n/);
    assert.match(text, /id: \d+\nevent: snapshot\ndata: \{/);
  });

  test('the snapshot honours vendor, status, limit and offset', async () => {
    const all = openStream(`${t.api}${path}`);
    const [snap] = await all.waitFor(1);
    all.close();
    assert.equal(snap!.type, 'snapshot');
    assert.equal(snap!.data.type, 'snapshot');
    assert.equal(snap!.data.total, 3);
    assert.equal(snap!.id, String(await t.repos.events.latestSeq()));

    const gh = openStream(`${t.api}${path}?vendor=github&limit=1&offset=1`);
    const [s2] = await gh.waitFor(1);
    gh.close();
    assert.equal(s2!.data.total, 2);
    assert.deepEqual(
      s2!.data.incidents.map((i: any) => i.id),
      ['github:snap-a'],
    );

    const resolved = openStream(`${t.api}${path}?status=resolved`);
    const [s3] = await resolved.waitFor(1);
    resolved.close();
    assert.deepEqual(
      s3!.data.incidents.map((i: any) => i.id),
      ['github:snap-b'],
    );
  });

  test('live events carry the log sequence as id and {type, occurredAt, incident}; filters apply', async () => {
    const all = openStream(`${t.api}${path}`);
    const gh = openStream(`${t.api}${path}?vendor=github`);
    const open = openStream(`${t.api}${path}?status=investigating`);
    await Promise.all([all.waitFor(1), gh.waitFor(1), open.waitFor(1)]);
    const stored = await commitEvents(t, [
      { vendor: 'github', id: 'live-1', type: 'incident.created' },
      { vendor: 'cloudflare', id: 'live-2', type: 'incident.created' },
      { vendor: 'github', id: 'live-1', type: 'incident.resolved', over: { status: 'resolved' } },
    ]);
    const got = (await all.waitFor(4)).slice(1);
    assert.deepEqual(
      got.map((r) => r.id),
      stored.map((e) => String(e.seq)),
    );
    assert.deepEqual(
      got.map((r) => r.type),
      ['incident.created', 'incident.created', 'incident.resolved'],
    );
    assert.deepEqual(Object.keys(got[0]!.data).sort(), ['incident', 'occurredAt', 'type']);
    assert.equal(got[0]!.data.type, 'incident.created');
    assert.equal(got[0]!.data.incident.id, 'github:live-1');
    assert.equal(got[0]!.data.occurredAt, stored[0]!.occurredAt);

    const ghGot = (await gh.waitFor(3)).slice(1);
    assert.deepEqual(
      ghGot.map((r) => r.data.incident.id),
      ['github:live-1', 'github:live-1'],
    );
    const openGot = (await open.waitFor(3)).slice(1);
    assert.deepEqual(
      openGot.map((r) => r.data.incident.id),
      ['github:live-1', 'cloudflare:live-2'],
    );
    await sleep(100);
    assert.equal(gh.received.length, 3, 'no cloudflare event on a github stream');
    assert.equal(open.received.length, 3, 'no resolved event on a status=investigating stream');
    for (const c of [all, gh, open]) c.close();
  });

  test('Last-Event-ID replays every missed matching event in order, then continues live, without gaps or duplicates', async () => {
    const first = openStream(`${t.api}${path}?vendor=github`);
    await first.waitFor(1);
    const a = await commitEvents(t, [{ vendor: 'github', id: 'r-1', type: 'incident.created' }]);
    const seen = await first.waitForType('incident.created', 1);
    assert.equal(seen.id, String(a[0]!.seq));
    first.close();

    // Missed while disconnected: two github events among others.
    const missed = await commitEvents(t, [
      { vendor: 'cloudflare', id: 'r-x', type: 'incident.created' },
      { vendor: 'github', id: 'r-2', type: 'incident.created' },
      { vendor: 'github', id: 'r-1', type: 'incident.updated' },
    ]);
    const resumed = openStream(`${t.api}${path}?vendor=github`, { 'Last-Event-ID': seen.id });
    const replay = await resumed.waitFor(2);
    assert.ok(!replay.some((r) => r.type === 'snapshot'), 'no snapshot on resume');
    assert.deepEqual(
      replay.map((r) => r.id),
      [missed[1]!.seq, missed[2]!.seq].map(String),
    );
    const live = await commitEvents(t, [{ vendor: 'github', id: 'r-3', type: 'incident.created' }]);
    const next = await resumed.waitFor(3);
    assert.equal(next[2]!.id, String(live[0]!.seq));
    await sleep(100);
    const ids = resumed.received.map((r) => Number(r.id));
    assert.deepEqual(
      ids,
      [...new Set(ids)].sort((x, y) => x - y),
      'strictly increasing, no duplicates',
    );
    resumed.close();

    // The query parameter does the same for clients that cannot set headers.
    const byQuery = openStream(`${t.api}${path}?vendor=github&lastEventId=${seen.id}`);
    const again = await byQuery.waitFor(3);
    byQuery.close();
    assert.deepEqual(
      again.map((r) => Number(r.id)),
      [missed[1]!.seq, missed[2]!.seq, live[0]!.seq],
    );
  });

  test('events committed while a resuming client is being replayed are sent once, after the replay', async () => {
    const start = await t.repos.events.latestSeq();
    const burst = await commitEvents(
      t,
      Array.from({ length: 1200 }, (_, i) => ({ vendor: 'github', id: `b-${i}`, type: 'incident.created' as const })),
    );
    const c = openStream(`${t.api}${path}?vendor=github`, { 'Last-Event-ID': String(start) });
    // Publish more while the replay (three pages) is under way.
    const more = commitEvents(t, [{ vendor: 'github', id: 'b-last', type: 'incident.created' }]);
    const [extra] = await more;
    const got = await c.waitFor(1201, 10_000);
    c.close();
    assert.deepEqual(
      got.map((r) => Number(r.id)),
      [...burst, extra!].map((e) => e.seq),
    );
  });

  test('a resume point older than the log keeps (or not from this log) gets a fresh snapshot', async () => {
    const old = await t.repos.events.latestSeq();
    await commitEvents(t, [{ vendor: 'github', id: 'p-1', type: 'incident.created' }]);
    await t.repos.events.prune(new Date(Date.now() + 60_000));
    await commitEvents(t, [{ vendor: 'github', id: 'p-2', type: 'incident.created' }]);
    const c = openStream(`${t.api}${path}`, { 'Last-Event-ID': String(old - 5) });
    const [first] = await c.waitFor(1);
    c.close();
    assert.equal(first!.type, 'snapshot');

    const future = openStream(`${t.api}${path}`, { 'Last-Event-ID': '999999999' });
    const [f] = await future.waitFor(1);
    future.close();
    assert.equal(f!.type, 'snapshot');
  });

  test('bad parameters are 400/404 with the error body, before any stream starts', async () => {
    for (const q of ['?limit=0', '?status=broken', '?lastEventId=-1', '?vendor=Not%20A%20Slug']) {
      const r = await getJson(`${t.api}${path}${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.body.success, false);
    }
    const bad = await getJson(`${t.api}${path}`, { headers: { 'Last-Event-ID': 'abc' } });
    assert.equal(bad.status, 400);
    const unknown = await getJson(`${t.api}${path}?vendor=no-such-vendor`);
    assert.equal(unknown.status, 404);
  });

  test('a client that does not read is dropped without slowing the others; closed streams leave nothing behind', async () => {
    const small = await startApp({ env: { STREAM_BUFFER_KB: '16', RATE_LIMITS: JSON.stringify({ anonymous: { concurrentStreams: 5 } }) } });
    try {
      const hub = small.app.streams.hub;
      const reader = openStream(`${small.api}${path}`);
      await reader.waitFor(1);
      // A raw client that sends the request and then never reads a byte.
      const { port } = new URL(small.url);
      const slow = net.connect(Number(port), '127.0.0.1');
      slow.pause();
      slow.write(`GET /api/v1/infrastructure${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await waitFor(() => hub.size === 2, { message: 'both streams are attached' });

      const big = 'x'.repeat(500_000);
      const sent: number[] = [];
      for (let i = 0; i < 100 && hub.stats.dropped === 0; i++) {
        const [e] = await commitEvents(small, [{ vendor: 'github', id: `big-${i}`, type: 'incident.created', over: { title: big } }]);
        sent.push(e!.seq);
        await sleep(5);
      }
      await waitFor(() => hub.stats.dropped === 1, { message: 'the slow client is dropped' });
      await waitFor(() => hub.size === 1, { message: 'the dropped client is detached' });
      const got = await reader.waitFor(1 + sent.length, 10_000);
      assert.deepEqual(
        got.slice(1).map((r) => Number(r.id)),
        sent,
        'the reading client got every event',
      );
      slow.destroy();

      // Closing the reader releases its slot and its place in the hub.
      reader.close();
      await waitFor(() => hub.size === 0, { message: 'every stream detached' });
      const streams = Array.from({ length: 5 }, () => openStream(`${small.api}${path}`));
      await Promise.all(streams.map((s) => s.waitFor(1)));
      const sixth = await getJson(`${small.api}${path}`);
      assert.equal(sixth.status, 429, 'cap reached again with five new streams: nothing leaked');
      for (const s of streams) s.close();
      await waitFor(() => hub.size === 0, { message: 'every stream detached' });
    } finally {
      await small.close();
    }
  });
});

describe('incident stream: quotas and caps', () => {
  let t: TestApp;
  before(async () => {
    // The real plan table.
    t = await startApp({ env: { RATE_LIMITS: '{}' } });
  });
  after(async () => t.close());

  test('opening a stream counts one request; over the concurrent-stream cap: 429 with the usual body, not counted', async () => {
    const first = await fetch(`${t.api}${path}`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-ratelimit-remaining'), '9', 'anonymous: 10 per minute, one used');
    const second = await fetch(`${t.api}${path}`);
    assert.equal(second.status, 429);
    const body = await second.json();
    assert.equal(body.success, false);
    assert.equal(body.error, 'rate_limit_exceeded');
    assert.equal(body.limit, 1);
    assert.equal(body.used, 1);
    assert.equal(body.currentPlan, 'anonymous');
    assert.equal(typeof body.retryAfter, 'number');
    assert.ok(body.requestId);
    assert.ok(second.headers.get('retry-after'));
    await first.body!.cancel();
    await waitFor(() => t.app.streams.hub.size === 0, { message: 'the first stream is closed' });
    const third = await fetch(`${t.api}${path}`);
    assert.equal(third.status, 200, 'the slot was given back');
    assert.equal(third.headers.get('x-ratelimit-remaining'), '8', 'the refused stream was not counted');
    await third.body!.cancel();
  });

  test('a key of a standard account may hold five streams; the sixth is refused', async () => {
    const u = await userWithKey(t, 'standard');
    const headers = { 'X-API-Key': u.secret };
    const streams = Array.from({ length: 5 }, () => openStream(`${t.api}${path}`, headers));
    await Promise.all(streams.map((s) => s.waitFor(1)));
    const sixth = await getJson(`${t.api}${path}`, { headers });
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.limit, 5);
    assert.equal(sixth.body.currentPlan, 'standard');
    for (const s of streams) s.close();
  });

  test('a wrong key is 401 as on any endpoint', async () => {
    const r = await getJson(`${t.api}${path}`, { headers: { 'X-API-Key': 'vis_wrong' } });
    assert.equal(r.status, 401);
  });
});

describe('incident stream: heartbeat and shutdown', () => {
  test('a ": ping" comment every STREAM_PING_SECONDS; closing the app ends the stream with a last comment', async () => {
    const t = await startApp({ env: { STREAM_PING_SECONDS: '1' } });
    let closed = false;
    try {
      const res = await fetch(`${t.api}${path}`);
      const reader = res.body!.getReader();
      let text = '';
      const started = Date.now();
      while (!text.includes(': ping\n\n')) text += new TextDecoder().decode((await reader.read()).value);
      assert.ok(Date.now() - started < 3000);
      const closing = t.close();
      closed = true;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await closing;
      assert.match(text, /: server closing, reconnect\n\n$/);
    } finally {
      if (!closed) await t.close();
    }
  });
});
