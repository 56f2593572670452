import fc from 'fast-check';
import type { CaseContext } from './fuzz-cases.ts';
import type { FuzzRequest } from './fuzz-http.ts';
import type { Operation } from './fuzz-openapi.ts';

// Requests no HTTP client would build, written byte for byte on a socket:
// broken framing, raw non-ASCII and control bytes, oversized headers,
// request-smuggling shapes, odd request lines. Most are answered by Node's
// parser (a bare 400 or 431, then the connection closes) before any route.

export interface RawCase {
  note: string;
  bytes: Buffer;
  /** False for requests a server may drop without a word (incomplete, upgrades). */
  expectResponse: boolean;
  expectStatus?: number[];
  /** The operation the request line names, when it names one. */
  op: Operation | null;
  /** Node answers this one itself, with a bare 400 (see CheckContext). */
  bareParserRefusal?: boolean;
  /** For the checks: the request's echoes. */
  req: FuzzRequest;
}

const API = '/api/v1/infrastructure';

export function rawCases(ctx: CaseContext, ops: Operation[], generated: number, seed: number): RawCase[] {
  const find = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path) ?? null;
  const list = find('GET', `${API}/vendor-list`);
  const health = find('GET', '/healthz');
  const info = find('GET', `${API}/vendor-info/{vendor}`);
  const watchPut = find('PUT', `${API}/watchlist`);
  const account = find('GET', '/api/v1/account');
  const key = ctx.creds.key;

  const head = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const cases: RawCase[] = [];
  const add = (
    note: string,
    bytes: Buffer | string,
    o: { op?: Operation | null; expectResponse?: boolean; expectStatus?: number[]; bareParserRefusal?: boolean } = {},
  ) => {
    const b = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
    const text = b.toString('latin1');
    cases.push({
      note,
      bytes: b,
      expectResponse: o.expectResponse ?? true,
      expectStatus: o.expectStatus,
      op: o.op ?? null,
      bareParserRefusal: o.bareParserRefusal,
      req: {
        opId: o.op?.id ?? null,
        method: 'RAW',
        path: '',
        headers: {},
        note,
        echoes: [text, b.toString('utf8'), ...text.split(/[\r\n ]+/), ...b.toString('utf8').split(/[\r\n ]+/)],
      },
    });
  };
  const get = (path: string, extra: string[] = []) => head([`GET ${path} HTTP/1.1`, 'Host: fuzz.test', 'Connection: close', ...extra]);

  add('baseline', get(`${API}/vendor-list`), { op: list, expectStatus: [200] });
  add(
    'raw bytes 0x80-0xFF in a path parameter',
    Buffer.concat([
      Buffer.from(`GET ${API}/vendor-info/`),
      Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]),
    { op: info },
  );
  add(
    'raw UTF-8 astral and RTL in a path parameter',
    Buffer.concat([
      Buffer.from(`GET ${API}/vendor-info/`),
      Buffer.from('😀\u202Egithub', 'utf8'),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]),
    { op: info },
  );
  add(
    'raw UTF-8 in the query',
    Buffer.concat([
      Buffer.from(`GET ${API}/incidents?vendor=`),
      Buffer.from('𝕏٣\u0000', 'utf8'),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]),
    { op: find('GET', `${API}/incidents`) },
  );
  add('control byte in the path', `GET ${API}/vendor-info/a\x01b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  add('DEL byte in the path', `GET ${API}/vendor-info/a\x7fb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  add('space in the path', `GET ${API}/vendor info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  add('bare LF line endings', `GET /healthz HTTP/1.1\nHost: x\nConnection: close\n\n`, { op: health });
  add('NUL in a header value', get('/healthz', ['X-Test: a\x00b']), { op: health });
  add('CR inside a header value', get('/healthz', ['X-Test: a\rSet-Cookie: x=1']), { op: health });
  add('space in a header name', get('/healthz', ['X Test: 1']), { op: health });
  add('obsolete line folding', get('/healthz', ['X-Test: a', ' folded']), { op: health });
  add('header without colon', get('/healthz', ['NoColonHere']), { op: health });
  add('20 kB header', get(`${API}/vendor-list`, [`X-Big: ${'a'.repeat(20_000)}`]), { op: list, expectStatus: [431] });
  add(
    '2000 headers',
    get(
      `${API}/vendor-list`,
      Array.from({ length: 2_000 }, (_, i) => `X-H${i}: ${i}`),
    ),
    { op: list, expectStatus: [431] },
  );
  add('20 kB URL', get(`${API}/incidents?vendor=${'a'.repeat(20_000)}`), { op: find('GET', `${API}/incidents`), expectStatus: [431] });
  add('20 kB cookie', get('/api/v1/account', [`Cookie: vis_session=${'a'.repeat(20_000)}`]), { op: account, expectStatus: [431] });
  add(
    'two different Content-Length',
    `${head([`PUT ${API}/watchlist HTTP/1.1`, 'Host: x', 'Connection: close', `X-API-Key: ${key}`, 'Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 14'])}{}`,
    { op: watchPut, expectStatus: [400] },
  );
  add(
    'Content-Length with Transfer-Encoding (smuggling)',
    Buffer.concat([
      head([
        `PUT ${API}/watchlist HTTP/1.1`,
        'Host: x',
        'Connection: close',
        `X-API-Key: ${key}`,
        'Content-Type: application/json',
        'Content-Length: 4',
        'Transfer-Encoding: chunked',
      ]),
      Buffer.from('2\r\n{}\r\n0\r\n\r\n'),
    ]),
    { op: watchPut, expectStatus: [400] },
  );
  add(
    'Transfer-Encoding with an unknown coding',
    Buffer.concat([
      head([`PUT ${API}/watchlist HTTP/1.1`, 'Host: x', 'Connection: close', `X-API-Key: ${key}`, 'Content-Type: application/json', 'Transfer-Encoding: gzip']),
      Buffer.from('{}'),
    ]),
    { op: watchPut, expectResponse: false },
  );
  add(
    'bad chunk size',
    Buffer.concat([
      head([
        `PUT ${API}/watchlist HTTP/1.1`,
        'Host: x',
        'Connection: close',
        `X-API-Key: ${key}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ]),
      Buffer.from('zz\r\n{}\r\n0\r\n\r\n'),
    ]),
    { op: watchPut, expectStatus: [400] },
  );
  add(
    'chunked JSON body',
    Buffer.concat([
      head([
        `PUT ${API}/watchlist HTTP/1.1`,
        'Host: x',
        'Connection: close',
        `X-API-Key: ${key}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ]),
      Buffer.from('4\r\n{"ve\r\nf\r\nndors":["github\r\n3\r\n"]}\r\n0\r\n\r\n'),
    ]),
    { op: watchPut, expectStatus: [200] },
  );
  add(
    'chunked body over 1 MB',
    Buffer.concat([
      head([
        `PUT ${API}/watchlist HTTP/1.1`,
        'Host: x',
        'Connection: close',
        `X-API-Key: ${key}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ]),
      ...Array.from({ length: 9 }, () => Buffer.from(`20000\r\n${'a'.repeat(0x20000)}\r\n`)),
      Buffer.from('0\r\n\r\n'),
    ]),
    { op: watchPut, expectStatus: [413] },
  );
  add(
    'Content-Length promising more than is sent',
    Buffer.concat([
      head([`PUT ${API}/watchlist HTTP/1.1`, 'Host: x', `X-API-Key: ${key}`, 'Content-Type: application/json', 'Content-Length: 100']),
      Buffer.from('{"vendors":'),
    ]),
    { op: watchPut, expectResponse: false },
  );
  add('negative Content-Length', head([`PUT ${API}/watchlist HTTP/1.1`, 'Host: x', 'Connection: close', `X-API-Key: ${key}`, 'Content-Length: -1']), {
    op: watchPut,
    expectStatus: [400],
  });
  add('Content-Length in exponent form', head([`PUT ${API}/watchlist HTTP/1.1`, 'Host: x', 'Connection: close', `X-API-Key: ${key}`, 'Content-Length: 1e3']), {
    op: watchPut,
    expectStatus: [400],
  });
  add('unknown method', head(['FUZZ /healthz HTTP/1.1', 'Host: x', 'Connection: close']));
  add('lower-case method', head(['get /healthz HTTP/1.1', 'Host: x', 'Connection: close']));
  add('HTTP/1.0 without Host', head(['GET /healthz HTTP/1.0']), { op: health, expectStatus: [200] });
  add('HTTP/1.1 without Host', head(['GET /healthz HTTP/1.1', 'Connection: close']), { op: health, expectStatus: [400], bareParserRefusal: true });
  add('two Host headers', head(['GET /healthz HTTP/1.1', 'Host: a', 'Host: b', 'Connection: close']), { op: health });
  add('HTTP/2.0 on the HTTP/1 port', head(['GET /healthz HTTP/2.0', 'Host: x', 'Connection: close']), { op: health });
  add('HTTP/9.9', head(['GET /healthz HTTP/9.9', 'Host: x', 'Connection: close']), { op: health });
  add('absolute-form request target', head([`GET http://evil.example${API}/vendor-list HTTP/1.1`, 'Host: x', 'Connection: close']), { op: list });
  add('asterisk request target', head(['OPTIONS * HTTP/1.1', 'Host: x', 'Connection: close']));
  add('path without leading slash', head([`GET api/v1/infrastructure/vendor-list HTTP/1.1`, 'Host: x', 'Connection: close']));
  add('CONNECT', head(['CONNECT example.com:443 HTTP/1.1', 'Host: example.com:443']), { expectResponse: false });
  add(
    'websocket upgrade',
    get('/healthz', ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13']),
    { op: health, expectResponse: false },
  );
  add(
    'Expect: 100-continue',
    Buffer.concat([
      head([
        `PUT ${API}/watchlist HTTP/1.1`,
        'Host: x',
        'Connection: close',
        `X-API-Key: ${key}`,
        'Content-Type: application/json',
        'Content-Length: 14',
        'Expect: 100-continue',
      ]),
      Buffer.from('{"vendors":[]}'),
    ]),
    { op: watchPut, expectStatus: [200] },
  );
  add('two X-API-Key headers', get('/api/v1/account', [`X-API-Key: ${key}`, `X-API-Key: ${key}`]), { op: account, expectStatus: [401] });
  add('two Authorization headers', get('/api/v1/account', [`Authorization: Bearer ${key}`, `Authorization: Bearer ${key}`]), { op: account });
  add('two Cookie headers', get('/api/v1/account', [`Cookie: ${ctx.creds.cookie}`, 'Cookie: vis_session=x']), { op: account });
  add(
    'raw bytes in X-API-Key',
    Buffer.concat([
      Buffer.from(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-API-Key: `),
      Buffer.from([0xff, 0xc0, 0x80, 0xe2, 0x80, 0xae]),
      Buffer.from('\r\n\r\n'),
    ]),
    { op: account, expectStatus: [401] },
  );
  add(
    'raw UTF-8 in the Cookie',
    Buffer.concat([
      Buffer.from(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: vis_session=`),
      Buffer.from('😀; vis_csrf=\u202E', 'utf8'),
      Buffer.from('\r\n\r\n'),
    ]),
    { op: account, expectStatus: [401] },
  );
  add(
    'GET with a body',
    Buffer.concat([
      head([`GET ${API}/vendor-list HTTP/1.1`, 'Host: x', 'Connection: close', 'Content-Type: application/json', 'Content-Length: 5']),
      Buffer.from('{"a":'),
    ]),
    { op: list },
  );
  add('trailing percent', get(`${API}/vendor-info/github%`), { op: info });
  add('binary garbage', Buffer.from([0x00, 0x01, 0x02, 0xff, 0x0d, 0x0a, 0x0d, 0x0a]));
  add('TLS ClientHello on the plain port', Buffer.from('16030100a5010000a10303000000000000000000000000000000000000000000000000000000000000000000002c', 'hex'), {
    expectResponse: false,
  });
  add('empty request line', '\r\n\r\n', { expectResponse: false });

  // Generated: a real operation's request line with raw bytes spliced into the
  // path, the query or a header value (CR and LF excluded, so framing holds).
  const bytesArb = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((a) => Buffer.from(a.filter((b) => b !== 0x0d && b !== 0x0a)));
  const targets = ops.filter((o) => o.method === 'GET' && !o.path.includes('stream'));
  const samples = fc.sample(
    fc.record({
      op: fc.constantFrom(...targets),
      where: fc.constantFrom('path', 'query', 'header'),
      bytes: bytesArb,
      authed: fc.boolean(),
    }),
    { numRuns: generated, seed },
  );
  for (const s of samples) {
    const path = s.op.path.replace(/\{vendor\}/g, 'github').replace(/\{[^}]+\}/g, 'x');
    const parts: Buffer[] = [Buffer.from(`GET ${path}`)];
    if (s.where === 'path') parts.push(s.bytes);
    if (s.where === 'query') parts.push(Buffer.from('?vendor='), s.bytes);
    parts.push(Buffer.from(` HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${s.authed ? `X-API-Key: ${key}\r\n` : ''}`));
    if (s.where === 'header') parts.push(Buffer.from('X-Fuzz: '), s.bytes, Buffer.from('\r\n'));
    parts.push(Buffer.from('\r\n'));
    add(`generated: raw bytes ${s.bytes.toString('hex')} in the ${s.where} of GET ${s.op.path}`, Buffer.concat(parts), { op: s.op });
  }
  return cases;
}
