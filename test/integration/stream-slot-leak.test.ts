import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { userWithKey } from '../helpers/access.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { openStream } from '../helpers/stream.ts';
import { sleep } from '../helpers/wait.ts';
import { ipSubject, orgSubject } from '../../src/services/access/limits.ts';

// Stream slots never leak (docs/stream.md, "Limits"): a client that opens
// the stream and resets the socket right after the request head, many times, leaves
// no slot behind, so a normal stream still opens. Runs with in-process slots and, with
// REDIS_URL set, with Redis slots (the case the refresh timer used to keep alive).

const DAY = [{ name: 'day', limit: 1_000_000, windowSeconds: 86_400 }];

/** Sends the request head and resets the connection at once. */
function openAndReset(t: TestApp, headers: Record<string, string>): Promise<void> {
  const { port, pathname } = new URL(`${t.api}/incidents/stream`);
  return new Promise((resolve) => {
    const s = net.connect(Number(port), '127.0.0.1', () => {
      const head = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      s.write(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n`);
      s.resetAndDestroy();
    });
    s.on('close', () => resolve());
    s.on('error', () => {});
  });
}

/** `n` streams open at once: no slot of the subject is held by a dead connection. */
async function fullCapOpens(t: TestApp, n: number, headers: Record<string, string> = {}) {
  // Slots of reset connections are given back as soon as the server sees the close.
  await sleep(200);
  const clients = Array.from({ length: n }, () => openStream(`${t.api}/incidents/stream`, headers));
  try {
    const firsts = await Promise.all(
      clients.map((c) =>
        c.waitFor(1, 10_000).then(
          ([e]) => e?.type,
          () => 'refused',
        ),
      ),
    );
    assert.deepEqual(firsts, Array(n).fill('snapshot'));
  } finally {
    for (const c of clients) c.close();
  }
}

describe('stream slots of reset connections', () => {
  let t: TestApp;
  before(async () => {
    // Pro's real cap of 20 streams, the same for anonymous callers (whose real cap of
    // 1 leaves too small a window to catch a leak); request limits out of the way.
    t = await startApp({
      env: {
        RATE_LIMITS: JSON.stringify({
          anonymous: { perMinute: 100_000, perDay: 1_000_000, concurrentStreams: 20 },
          pro: { perMinute: 100_000, perDay: 1_000_000 },
        }),
      },
    });
  });
  after(async () => t.close());

  test('60 resets by an anonymous client leave no slot taken', async () => {
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 20 }, () => openAndReset(t, {})));
    await fullCapOpens(t, 20);
    // The aborted requests were counted against the address.
    assert.ok((await t.app.access.limiter.peek(ipSubject('127.0.0.1'), DAY)).windows[0].used >= 20);
  });

  test('60 resets by a pro key (cap 20) leave no slot taken; they are counted against the account', async () => {
    const u = await userWithKey(t, 'pro');
    const headers = { 'x-api-key': u.secret };
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 20 }, () => openAndReset(t, headers)));
    await fullCapOpens(t, 20, headers);
    assert.ok((await t.app.access.limiter.peek(orgSubject(u.userId), DAY)).windows[0].used >= 20);
  });
});
