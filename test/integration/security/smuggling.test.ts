import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { userWithKey } from '../../helpers/access.ts';
import { parseResponses, rawExchange, statusLines } from './support.ts';

// Request smuggling basics on raw sockets: every message whose framing two hops
// could read differently gets one 400 and a closed connection, so the bytes
// after it (here a whole second request) are never parsed as a request of their
// own. Well-formed pipelined requests are answered in order. Node's parser
// (llhttp, strict mode: no insecureHTTPParser) does the framing checks; the
// repeated Host header is refused by src/http/request-hygiene.ts.

const SMUGGLED = 'GET /healthz?smuggled=1 HTTP/1.1\r\nHost: x\r\n\r\n';
const post = (headers: string, body: string) => `POST /api/v1/auth/logout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;

const AMBIGUOUS: Record<string, string> = {
  'Content-Length and Transfer-Encoding': post('Content-Length: 6\r\nTransfer-Encoding: chunked\r\n', `0\r\n\r\n${SMUGGLED}`),
  'Transfer-Encoding and Content-Length': post('Transfer-Encoding: chunked\r\nContent-Length: 3\r\n', `0\r\n\r\n${SMUGGLED}`),
  'two differing Content-Length': post('Content-Length: 2\r\nContent-Length: 40\r\n', `{}${SMUGGLED}`),
  'Content-Length list': post('Content-Length: 2, 40\r\n', `{}${SMUGGLED}`),
  'Content-Length with a sign': post('Content-Length: +2\r\n', `{}${SMUGGLED}`),
  'negative Content-Length': post('Content-Length: -1\r\n', `{}${SMUGGLED}`),
  'chunk size not hex': post('Transfer-Encoding: chunked\r\n', `zz\r\n{}\r\n0\r\n\r\n${SMUGGLED}`),
  'chunk size 0x-prefixed': post('Transfer-Encoding: chunked\r\n', `0x2\r\n{}\r\n0\r\n\r\n${SMUGGLED}`),
  'chunk size overflowing 64 bits': post('Transfer-Encoding: chunked\r\n', `fffffffffffffffff\r\n{}\r\n0\r\n\r\n${SMUGGLED}`),
  'negative chunk size': post('Transfer-Encoding: chunked\r\n', `-2\r\n{}\r\n0\r\n\r\n${SMUGGLED}`),
  'chunk longer than its size': post('Transfer-Encoding: chunked\r\n', `1\r\n{}\r\n0\r\n\r\n${SMUGGLED}`),
  'chunks with bare LF': post('Transfer-Encoding: chunked\r\n', `2\n{}\n0\n\n${SMUGGLED}`),
  'Transfer-Encoding: chunked, identity': post('Transfer-Encoding: chunked, identity\r\n', `0\r\n\r\n${SMUGGLED}`),
  'Transfer-Encoding: identity, chunked': post('Transfer-Encoding: identity, chunked\r\n', `0\r\n\r\n${SMUGGLED}`),
  'Transfer-Encoding: xchunked': post('Transfer-Encoding: xchunked\r\n', `0\r\n\r\n${SMUGGLED}`),
  'two Transfer-Encoding headers': post('Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n', `0\r\n\r\n${SMUGGLED}`),
  'space before the colon': post('Transfer-Encoding : chunked\r\n', `0\r\n\r\n${SMUGGLED}`),
  'vertical tab before the value': post('Transfer-Encoding:\x0bchunked\r\n', `0\r\n\r\n${SMUGGLED}`),
  'chunked on HTTP/1.0': `POST /api/v1/auth/logout HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${SMUGGLED}`,
  'obs-fold line': `GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n${SMUGGLED}`,
  'obs-fold hiding Transfer-Encoding': post('X-A: a\r\n Transfer-Encoding: chunked\r\nContent-Length: 2\r\n', `{}${SMUGGLED}`),
  'bare LF line endings': `GET /healthz HTTP/1.1\nHost: x\n\n${SMUGGLED}`,
  'bare CR': `GET /healthz HTTP/1.1\rHost: x\r\r\n${SMUGGLED}`,
  'NUL in a header value': `GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n${SMUGGLED}`,
  'space in a header name': `GET /healthz HTTP/1.1\r\nHost: x\r\nX A: b\r\n\r\n${SMUGGLED}`,
  'no Host on HTTP/1.1': `GET /healthz HTTP/1.1\r\n\r\n${SMUGGLED}`,
  'two Host headers': `GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n${SMUGGLED}`,
};

describe('request smuggling basics (raw sockets)', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  before(async () => {
    t = await startApp();
    port = Number(new URL(t.url).port);
    key = (await userWithKey(t, 'pro')).secret;
  });
  after(async () => t?.close());

  test('ambiguous framing: one 400, the connection closed, the bytes after it never answered', async () => {
    for (const [name, bytes] of Object.entries(AMBIGUOUS)) {
      const { text, closed } = await rawExchange(port, Buffer.from(bytes, 'latin1'));
      assert.deepEqual(statusLines(text), ['HTTP/1.1 400 Bad Request'], `${name}: ${text.slice(0, 300)}`);
      assert.ok(closed, `${name}: connection closed`);
      assert.ok(!text.includes('"status":"ok"'), `${name}: the smuggled request was answered`);
    }
  });

  test('two Host headers are refused on the cache hot path too (authenticated GET of a cached list)', async () => {
    const get = (hosts: string[]) =>
      `GET /api/v1/infrastructure/incidents?limit=5 HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}X-API-Key: ${key}\r\n\r\n`;
    // One Host: the first call fills the cache, the second is answered by the hot path.
    const headersOf = async () => parseResponses((await rawExchange(port, `${get(['x']).slice(0, -2)}Connection: close\r\n\r\n`)).text)[0]!.headers['x-cache'];
    assert.ok(['MISS', 'HIT'].includes((await headersOf())!));
    assert.equal(await headersOf(), 'HIT');
    const { text, closed } = await rawExchange(port, get(['x', 'y']) + SMUGGLED);
    assert.deepEqual(statusLines(text), ['HTTP/1.1 400 Bad Request']);
    assert.ok(closed);
  });

  test('a GET whose body looks like a request is read as its body, not as a second request', async () => {
    const bytes = `GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: ${SMUGGLED.length}\r\nConnection: close\r\n\r\n${SMUGGLED}`;
    const { text } = await rawExchange(port, bytes);
    assert.equal(statusLines(text).length, 1, text);
  });

  test('pipelined requests (plain, Content-Length body, chunked body) are answered in order', async () => {
    const bytes =
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: first\r\n\r\n' +
      'POST /api/v1/auth/logout HTTP/1.1\r\nHost: x\r\nX-Request-Id: second\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}' +
      'POST /api/v1/auth/logout HTTP/1.1\r\nHost: x\r\nX-Request-Id: third\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n' +
      'GET /api/v1/infrastructure/nope HTTP/1.1\r\nHost: x\r\nX-Request-Id: fourth\r\n\r\n' +
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: fifth\r\nConnection: close\r\n\r\n';
    const { text, closed } = await rawExchange(port, bytes, 5000);
    assert.deepEqual(statusLines(text), ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 404 Not Found', 'HTTP/1.1 200 OK']);
    assert.deepEqual(
      parseResponses(text).map((r) => r.headers['x-request-id']),
      ['first', 'second', 'third', 'fourth', 'fifth'],
    );
    assert.ok(closed, 'Connection: close honoured after the last one');
  });
});
