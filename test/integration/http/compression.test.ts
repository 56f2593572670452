import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { preferredCoding } from '../../../src/http/access/content-coding.ts';
import { startApp, type TestApp, UNLIMITED_RATE_LIMITS } from '../../helpers/app.ts';
import { userWithKey, type TestUser } from '../../helpers/access.ts';
import { seedDashboard } from '../../helpers/seed.ts';

// HTTP compression (docs/access.md, "Compression"): br or gzip as the request accepts, for
// JSON, HTML and feeds, answered by routes and by cache hits at both layers (whose compressed
// variants are made once per entry), `Vary: Accept-Encoding` on each, and never on the stream.
// Raw node:http requests: fetch would add an Accept-Encoding of its own and decode silently.

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw) =>
  r.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(r.body) : r.body;

describe('HTTP compression', () => {
  let t: TestApp;
  let u: TestUser;
  before(async () => {
    t = await startApp({ env: { RATE_LIMITS: UNLIMITED_RATE_LIMITS } });
    await seedDashboard(t.store);
    u = await userWithKey(t, 'pro', 'coding');
  });
  after(async () => t.close());

  test('Accept-Encoding is read with its q-values', () => {
    assert.equal(preferredCoding(undefined), null);
    assert.equal(preferredCoding(''), null);
    assert.equal(preferredCoding('identity'), null);
    assert.equal(preferredCoding('gzip, deflate, br'), 'br');
    assert.equal(preferredCoding('gzip'), 'gzip');
    assert.equal(preferredCoding('br;q=0, gzip'), 'gzip');
    assert.equal(preferredCoding('gzip;q=0.5, br;q=0.4'), 'gzip');
    assert.equal(preferredCoding('*'), 'br');
    assert.equal(preferredCoding('br;q=0, *;q=0.1'), 'gzip');
    assert.equal(preferredCoding('gzip;q=0, br;q=0'), null);
    assert.equal(preferredCoding('deflate'), null);
  });

  test('a JSON list in br, gzip or as it is, decoding to the same bytes, with Vary', async () => {
    const url = `${t.api}/vendor-list`;
    const plain = await get(url);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.length > 10_000);
    const list = (r: Raw) => JSON.parse(decode(r).toString()).items;
    for (const [accept, coding] of [
      ['br', 'br'],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const r = await get(url, { 'accept-encoding': accept });
      assert.equal(r.status, 200, accept);
      assert.equal(r.headers['content-encoding'], coding, accept);
      assert.match(String(r.headers.vary ?? ''), /accept-encoding/i, accept);
      assert.deepEqual(list(r), list(plain), accept);
      if (coding) assert.ok(r.body.length * 3 < plain.body.length, `${accept}: ${r.body.length} of ${plain.body.length} bytes`);
    }
  });

  test('cache hits at both layers come compressed, made once, and revalidate with any coding’s ETag', async () => {
    // Anonymous: the hit is answered inside Fastify.
    const url = `${t.api}/incidents?limit=50&timePeriod=7d`;
    const miss = await get(url, { 'accept-encoding': 'br' });
    assert.equal(miss.headers['x-cache'], 'MISS');
    const hit = await get(url, { 'accept-encoding': 'br' });
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.ok(Number(JSON.parse(decode(hit).toString()).items.length) > 0);
    assert.equal(hit.headers['content-encoding'], 'br');
    assert.equal(Number(hit.headers['content-length']), hit.body.length);
    assert.deepEqual(JSON.parse(decode(hit).toString()), JSON.parse(decode(miss).toString()));
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.notEqual(gz.headers.etag, hit.headers.etag, 'each coding has its own validator');
    const plainHit = await get(url);
    assert.equal(plainHit.headers['content-encoding'], undefined);
    for (const etag of [hit.headers.etag!, gz.headers.etag!, plainHit.headers.etag!]) {
      assert.equal((await get(url, { 'accept-encoding': 'br', 'if-none-match': etag })).status, 304, etag);
    }
    // With a key: the second request is a hit answered at the HTTP server, before Fastify.
    const keyed = { 'x-api-key': u.secret, 'accept-encoding': 'gzip, br' };
    const kUrl = `${t.api}/incidents?limit=100&timePeriod=7d`;
    await get(kUrl, keyed);
    const serverHit = await get(kUrl, keyed);
    assert.equal(serverHit.headers['x-cache'], 'HIT');
    assert.equal(serverHit.headers['content-encoding'], 'br');
    assert.match(String(serverHit.headers.vary), /Accept-Encoding/);
    JSON.parse(decode(serverHit).toString());
  });

  test('HTML pages and feeds are compressed; HEAD sends no body', async () => {
    const page = await get(`${t.url}/`, { 'accept-encoding': 'br' });
    assert.equal(page.headers['content-encoding'], 'br');
    assert.match(decode(page).toString(), /<!doctype html>/i);
    const feed = await get(`${t.url}/api/v1/feeds/vendors/github.atom`, { 'accept-encoding': 'gzip' });
    assert.equal(feed.status, 200);
    assert.equal(feed.headers['content-encoding'], 'gzip');
    assert.match(decode(feed).toString(), /<feed/);
    const head = await get(`${t.api}/vendor-list`, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
  });

  test('the event stream is never compressed', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${t.api}/incidents/stream`, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
        try {
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers['content-encoding'], undefined);
          assert.match(String(res.headers['content-type']), /text\/event-stream/);
        } catch (err) {
          reject(err);
        }
        res.once('data', (chunk: Buffer) => {
          try {
            assert.match(chunk.toString(), /event: snapshot|retry:|^:/m, 'plain text, event by event');
            resolve();
          } catch (err) {
            reject(err);
          } finally {
            req.destroy();
          }
        });
      });
      req.on('error', () => {});
    });
  });
});
