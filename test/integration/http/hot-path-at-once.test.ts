import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hotHeaders } from '../../../src/http/access/raw-headers.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { userWithKey, type TestUser } from '../../helpers/access.ts';

// A plain cache hit whose key, organisation, entry and count are all in-process is answered
// in the same turn as the request arrived, with no promise on the way (docs/access.md "Hot
// path for cache hits"); the server reads only the raw header lines it needs, and anything
// unusual among them goes through Fastify.

type Written = { status: number; headers: (string | number)[]; body: Buffer | undefined };

function fakeExchange(rawHeaders: string[], url: string) {
  const written: Written[] = [];
  let status = 0;
  let headers: (string | number)[] = [];
  const req = { method: 'GET', url, rawHeaders } as unknown as IncomingMessage;
  const res = {
    writeHead(s: number, h: (string | number)[]) {
      status = s;
      headers = h;
    },
    end(body?: Buffer) {
      written.push({ status, headers, body });
    },
  } as unknown as ServerResponse;
  return { req, res, written };
}

/** Sends raw bytes (repeated header lines, which fetch would fold) and reads the status line. */
function rawStatus(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (d) => {
      data += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
  });
}

describe('cache hits answered at once', () => {
  let t: TestApp;
  let user: TestUser;
  let port: number;
  const path = '/api/v1/infrastructure/vendor-status/github';
  before(async () => {
    // Limits large enough for Redis to count in leased slices (docs/access.md "Leased
    // counting"): once the first slice is held, a hit is counted in-process on either store.
    t = await startApp({ env: { RATE_LIMITS: JSON.stringify({ pro: { perMinute: 1_000_000, perDay: 1_000_000 } }) } });
    user = await userWithKey(t, 'pro');
    port = new URL(t.api).port as unknown as number;
    // A miss fills the entry; a hit teaches the server which entry the URL names.
    for (let i = 0; i < 2; i++) await fetch(`${t.api}/vendor-status/github`, { headers: { 'x-api-key': user.secret } });
  });
  after(async () => t.close());

  test('a remembered key, entry and in-process count answer without a promise', () => {
    const hot = (t.app as unknown as { cacheHotPath: (req: IncomingMessage, res: ServerResponse) => unknown }).cacheHotPath;
    const { req, res, written } = fakeExchange(['Host', `127.0.0.1:${port}`, 'X-Api-Key', user.secret, 'X-Request-Id', 'trace-1'], path);
    const answered = hot(req, res);
    assert.equal(answered, true, 'answered in this turn, not through a promise');
    assert.equal(written.length, 1);
    assert.equal(written[0]!.status, 200);
    const h = written[0]!.headers;
    assert.equal(h[h.indexOf('x-request-id') + 1], 'trace-1');
    assert.equal(h[h.indexOf('x-cache') + 1], 'HIT');
    assert.ok(h.includes('ratelimit'), 'the hit was counted');
  });

  test('a repeated credential or Host line is left to Fastify, which refuses it', async () => {
    const hot = (t.app as unknown as { cacheHotPath: (req: IncomingMessage, res: ServerResponse) => unknown }).cacheHotPath;
    const twice = fakeExchange(['Host', 'a', 'X-Api-Key', user.secret, 'x-api-key', user.secret], path);
    assert.equal(hot(twice.req, twice.res), false);
    assert.equal(twice.written.length, 0);
    const key = `X-Api-Key: ${user.secret}\r\n`;
    assert.equal(await rawStatus(port, `GET ${path} HTTP/1.1\r\nHost: a\r\n${key}${key}\r\n`), 401);
    assert.equal(await rawStatus(port, `GET ${path} HTTP/1.1\r\nHost: a\r\nHost: b\r\n${key}\r\n`), 400);
    assert.equal(await rawStatus(port, `GET ${path} HTTP/1.1\r\nHost: a\r\n${key}\r\n`), 200);
  });

  test('raw header lines: names in any case, other lines skipped, a wanted name twice is null', () => {
    assert.deepEqual(hotHeaders(['HOST', 'a', 'User-Agent', 'x', 'If-None-Match', '"e"', 'Accept-Encoding', 'br']), {
      host: 'a',
      'if-none-match': '"e"',
      'accept-encoding': 'br',
    });
    assert.equal(hotHeaders(['Cookie', 'a=1', 'cookie', 'b=2']), null);
    assert.equal(hotHeaders(['Authorization', 'Bearer x', 'AUTHORIZATION', 'Bearer y']), null);
    assert.deepEqual(hotHeaders(['Accept', '*/*', 'Accept', 'text/html']), {});
  });
});
