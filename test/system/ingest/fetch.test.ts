// @store-independent: the HTTP fetcher against a local server, no store; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { bodyHasEvent } from '../../../src/domain/server-sent-events.ts';
import { createHttpFetcher, FetchError, parseRetryAfter, USER_AGENT } from '../../../src/infra/fetch.ts';

// The poller's HTTP client against a real local server misbehaving on purpose.

describe('fetch with limits', () => {
  let server: http.Server;
  let base: string;
  const seen: http.IncomingHttpHeaders[] = [];
  const fetcher = createHttpFetcher();
  // Generous: a loaded machine must not turn a size or status test into a timeout.
  const opts = { timeoutMs: 10_000, maxBytes: 1024 * 1024 };
  // 20 MB of zeros compress to ~20 KB: the cap applies to what it expands to.
  const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024));

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      const url = new URL(req.url!, 'http://x');
      switch (url.pathname) {
        case '/plain':
          res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'last-modified': 'Mon, 02 Mar 2026 10:00:00 GMT' });
          return res.end('{"ok":true}');
        case '/gzip': {
          const body = zlib.gzipSync(Buffer.from(JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => i) })));
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
          return res.end(body);
        }
        case '/bomb':
          res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bomb.length });
          return res.end(bomb);
        case '/conditional':
          if (req.headers['if-none-match'] === '"v1"') {
            res.writeHead(304, { etag: '"v1"' });
            return res.end();
          }
          res.writeHead(200, { etag: '"v1"' });
          return res.end('fresh');
        case '/redirect':
          res.writeHead(301, { location: '/plain' });
          return res.end();
        case '/loop':
          res.writeHead(302, { location: '/loop' });
          return res.end();
        case '/trickle': {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('[');
          const timer = setInterval(() => res.write('1,'), 50);
          res.on('close', () => clearInterval(timer));
          return;
        }
        case '/stream': {
          // A server-sent event stream that never ends: an opening event, then a heartbeat.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: init_event\ndata: {"state":"operational",');
          setTimeout(() => res.write('"issues":[]}\n\n'), 20);
          const timer = setInterval(() => res.write(': keep-alive\n\n'), 50);
          res.on('close', () => clearInterval(timer));
          return;
        }
        case '/busy':
          res.writeHead(503, { 'retry-after': '120' });
          return res.end('try later');
        default:
          res.writeHead(404);
          return res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await fetcher.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof FetchError, String(err));
      return err;
    }
    assert.fail('expected a FetchError');
  };

  test('reads a body with its validators and names itself', async () => {
    const r = await fetcher(`${base}/plain`, opts);
    assert.equal(r.notModified, false);
    if (r.notModified) return;
    assert.equal(r.body.toString(), '{"ok":true}');
    assert.equal(r.etag, '"v1"');
    assert.equal(r.lastModified, 'Mon, 02 Mar 2026 10:00:00 GMT');
    assert.equal(seen.at(-1)!['user-agent'], USER_AGENT);
  });

  test('a body complete before the connection ends: reading stops at the first complete event', async () => {
    const started = Date.now();
    const res = await fetcher(`${base}/stream`, { ...opts, complete: bodyHasEvent('init_event') });
    assert.equal(res.notModified, false);
    if (res.notModified) return;
    assert.match(res.body.toString('utf8'), /^event: init_event\ndata: \{"state":"operational","issues":\[\]\}\n\n/);
    assert.ok(Date.now() - started < opts.timeoutMs, 'not read until the deadline');
    // Without the rule the same stream runs into the deadline.
    await assert.rejects(fetcher(`${base}/stream`, { ...opts, timeoutMs: 300 }), (e: unknown) => e instanceof FetchError && e.code === 'timeout');
  });

  test('decompresses gzip', async () => {
    const r = await fetcher(`${base}/gzip`, opts);
    assert.ok(!r.notModified && JSON.parse(r.body.toString()).items.length === 500);
  });

  test('caps the decompressed size (a gzip bomb stops at the cap)', async () => {
    const err = await failure(fetcher(`${base}/bomb`, opts));
    assert.equal(err.code, 'too_large');
  });

  test('sends If-None-Match / If-Modified-Since and reports 304', async () => {
    const r = await fetcher(`${base}/conditional`, { ...opts, etag: '"v1"', lastModified: 'Mon, 02 Mar 2026 10:00:00 GMT' });
    assert.equal(r.notModified, true);
    assert.equal(seen.at(-1)!['if-none-match'], '"v1"');
    assert.equal(seen.at(-1)!['if-modified-since'], 'Mon, 02 Mar 2026 10:00:00 GMT');
  });

  test('follows a few redirects, not endless ones', async () => {
    const r = await fetcher(`${base}/redirect`, opts);
    assert.equal(r.url, `${base}/plain`);
    const err = await failure(fetcher(`${base}/loop`, opts));
    assert.equal(err.code, 'redirect');
  });

  test('one deadline covers a body that never ends', async () => {
    const err = await failure(fetcher(`${base}/trickle`, { ...opts, timeoutMs: 300 }));
    assert.equal(err.code, 'timeout');
    assert.equal(err.message, 'timed out after 300 ms');
  });

  test('error statuses carry Retry-After', async () => {
    const err = await failure(fetcher(`${base}/busy`, opts));
    assert.equal(err.code, 'http_status');
    assert.equal(err.status, 503);
    assert.equal(err.retryAfterSeconds, 120);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')), 60);
    assert.equal(parseRetryAfter('soon'), null);
  });

  test('a refused connection is a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await failure(fetcher(`http://127.0.0.1:${port}/`, opts));
    assert.equal(err.code, 'network');
  });

  test('an abort from the caller is reported as such', async () => {
    const ac = new AbortController();
    const p = fetcher(`${base}/trickle`, { ...opts, timeoutMs: 5000, signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const err = await failure(p);
    assert.equal(err.code, 'aborted');
  });
});
