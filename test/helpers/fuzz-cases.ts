import fc from 'fast-check';
import type { Json, Operation, Param, Schema } from './fuzz-openapi.ts';
import { describeRequest, type FuzzRequest } from './fuzz-http.ts';
import {
  BROKEN_JSON,
  CONTENT_TYPES,
  type FuzzPools,
  headerJunk,
  jsonFor,
  nasty,
  paramValue,
  pctEncode,
  unknownParamName,
  validParamText,
  type WirePiece,
  wrongJson,
} from './fuzz-values.ts';

// One generated request per run, built from an operation of the document:
// credentials (none, key, bearer, session with its CSRF token, or broken ones),
// path parameters, query parameters (absent, odd, duplicated, unknown, many),
// extra headers, and for body-taking methods a body (schema-derived, wrong
// types, broken JSON, empty, wrong content type). See docs/hardening.md.

export interface FuzzCredentials {
  /** The test user's API key. */
  key: string;
  /** Cookie header of the user's web session (session + CSRF cookie). */
  cookie: string;
  csrf: string;
  /** The app's own origin (what the web pages send). */
  origin: string;
  /** A second session of the same user, spent on logout (the main one must live on). */
  logoutCookie: string;
  logoutCsrf: string;
  /** A SCIM token of a team organisation of the user (the SCIM endpoints take only that). */
  scimToken: string;
}

export interface CaseContext {
  pools: FuzzPools;
  creds: FuzzCredentials;
  resolve: (s: Schema) => Schema;
}

export interface FuzzCase {
  /** The operation whose statuses apply (null: the request cannot reach one, e.g. another method). */
  op: Operation | null;
  req: FuzzRequest;
}

type Auth =
  | 'anonymous'
  | 'key'
  | 'bearer'
  | 'session'
  | 'session-no-csrf'
  | 'session-foreign-origin'
  | 'bad-key'
  | 'bad-bearer'
  | 'bad-session'
  | 'key-and-session'
  | 'scim';

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};
const echoesOf = (p: WirePiece) => [p.text, p.wire, safeDecode(p.wire)];

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

function authArb(op: Operation, wellFormed: boolean): fc.Arbitrary<Auth> {
  if (op.scim) {
    if (wellFormed) return fc.constant<Auth>('scim');
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<Auth>('scim') },
      { weight: 1, arbitrary: fc.constantFrom<Auth>('anonymous', 'key', 'bearer', 'session', 'bad-bearer') },
    );
  }
  if (wellFormed) {
    const good: Auth[] = op.sessionOnly ? ['session'] : op.perUser ? ['key', 'bearer', 'session'] : ['anonymous', 'key', 'session'];
    return fc.constantFrom(...good);
  }
  // Per-user routes mostly get valid credentials so that validation beyond 401 is reached.
  const w = op.perUser
    ? { anonymous: 1, key: op.sessionOnly ? 1 : 4, bearer: op.sessionOnly ? 0 : 2, session: 5 }
    : { anonymous: 5, key: 3, bearer: 1, session: 2 };
  const arbs: fc.WeightedArbitrary<Auth>[] = [
    { weight: w.anonymous, arbitrary: fc.constant<Auth>('anonymous') },
    { weight: w.key, arbitrary: fc.constant<Auth>('key') },
    { weight: w.session, arbitrary: fc.constant<Auth>('session') },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Auth>('session-no-csrf', 'session-foreign-origin', 'bad-key', 'bad-bearer', 'bad-session', 'key-and-session'),
    },
  ];
  if (w.bearer) arbs.push({ weight: w.bearer, arbitrary: fc.constant<Auth>('bearer') });
  return fc.oneof(...arbs);
}

function authHeaders(auth: Auth, op: Operation, method: string, c: FuzzCredentials, junk: string): Record<string, string> {
  const logout = op.path.endsWith('/auth/logout');
  const cookie = logout ? c.logoutCookie : c.cookie;
  const csrf = logout ? c.logoutCsrf : c.csrf;
  const session = (withCsrf: boolean, origin = c.origin): Record<string, string> =>
    UNSAFE.has(method) ? { cookie, origin, ...(withCsrf ? { 'x-csrf-token': csrf } : {}) } : { cookie };
  switch (auth) {
    case 'anonymous':
      return {};
    case 'key':
      return { 'x-api-key': c.key };
    case 'bearer':
      return { authorization: `Bearer ${c.key}` };
    case 'session':
      return session(true);
    case 'session-no-csrf':
      return session(false);
    case 'session-foreign-origin':
      return { ...session(true), origin: junk || 'https://evil.example' };
    case 'bad-key':
      return { 'x-api-key': junk };
    case 'bad-bearer':
      return { authorization: junk.startsWith('B') ? junk : `Bearer ${junk}` };
    case 'bad-session':
      return { cookie: `vis_session=${junk}; vis_csrf=${junk}`, ...(UNSAFE.has(method) ? { origin: c.origin, 'x-csrf-token': junk } : {}) };
    case 'key-and-session':
      return { 'x-api-key': c.key, ...session(true) };
    case 'scim':
      return { authorization: `Bearer ${c.scimToken}` };
  }
}

/** One query parameter as `name=value` pieces (or a bare name, or twice). */
interface QueryPiece {
  parts: string[];
  echoes: string[];
}

/** A valid text, percent-encoded (what a well-behaved client sends). */
const validPiece = (schema: Schema, name: string, ctx: CaseContext, path = ''): fc.Arbitrary<WirePiece> =>
  validParamText(schema, name, ctx.pools, path).map((text) => ({ wire: pctEncode(text), text }));

function queryParamArb(p: Param, ctx: CaseContext, wellFormed: boolean): fc.Arbitrary<QueryPiece> {
  const one = (v: WirePiece): QueryPiece => ({ parts: [`${p.name}=${v.wire}`], echoes: echoesOf(v) });
  if (wellFormed) {
    return fc.oneof<fc.WeightedArbitrary<QueryPiece>[]>(
      { weight: p.required ? 0 : 1, arbitrary: fc.constant({ parts: [], echoes: [] }) },
      { weight: 1, arbitrary: validPiece(p.schema, p.name, ctx).map(one) },
    );
  }
  const value = paramValue(p.schema, p.name, ctx.pools);
  return fc.oneof<fc.WeightedArbitrary<QueryPiece>[]>(
    { weight: p.required ? 0 : 3, arbitrary: fc.constant({ parts: [], echoes: [] }) },
    { weight: 8, arbitrary: value.map(one) },
    {
      weight: 1,
      arbitrary: fc.tuple(value, value).map(([a, b]) => ({ parts: [`${p.name}=${a.wire}`, `${p.name}=${b.wire}`], echoes: [...echoesOf(a), ...echoesOf(b)] })),
    },
    { weight: 1, arbitrary: fc.constantFrom<QueryPiece>({ parts: [p.name], echoes: [] }, { parts: [`${p.name}=`], echoes: [] }) },
  );
}

const extraQueryArb = (): fc.Arbitrary<QueryPiece> =>
  fc.oneof<fc.WeightedArbitrary<QueryPiece>[]>(
    { weight: 6, arbitrary: fc.constant({ parts: [], echoes: [] }) },
    {
      weight: 2,
      arbitrary: fc
        .array(
          fc.tuple(
            unknownParamName(),
            fc.option(
              nasty().map((t) => ({ wire: pctEncode(t), text: t })),
              { nil: undefined },
            ),
          ),
          {
            minLength: 1,
            maxLength: 3,
          },
        )
        .map((kv) => ({
          parts: kv.map(([k, v]) => (v ? `${k.wire}=${v.wire}` : k.wire)),
          echoes: kv.flatMap(([k, v]) => [...echoesOf(k), ...(v ? echoesOf(v) : [])]),
        })),
    },
    // Many parameters: hundreds of distinct ones, or one repeated.
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 100, max: 1_500 }), fc.boolean()).map(([n, same]) => ({
        parts: Array.from({ length: n }, (_, i) => (same ? `limit=${i}` : `p${i}=${i}`)),
        echoes: [],
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<QueryPiece>({ parts: ['', '', ''], echoes: [] }, { parts: ['=', '=='], echoes: [] }, { parts: ['&'], echoes: [] }),
    },
  );

/** Path with its parameters filled in, sometimes bent (trailing slash, doubled slash, dot segments, case). */
function pathArb(op: Operation, ctx: CaseContext, wellFormed: boolean): fc.Arbitrary<{ path: string; bent: boolean; echoes: string[] }> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const values = names.map((n) => {
    const schema = op.params.find((p) => p.in === 'path' && p.name === n)?.schema ?? { type: 'string' };
    if (wellFormed) return validPiece(schema, n, ctx, op.path);
    return fc.oneof({ weight: 12, arbitrary: paramValue(schema, n, ctx.pools, op.path) }, { weight: 1, arbitrary: fc.constant({ wire: '', text: '' }) });
  });
  // One hostile path in four is bent: these mostly reach no route (404), which is the point.
  const same = (p: string) => p;
  const bends = fc.constantFrom<(p: string) => string>(
    (p) => `${p}/`,
    (p) => p.replace('/api/', '//api/'),
    (p) => `${p}/..`,
    (p) => p.replace('/v1/', '/v1/./'),
    (p) => p.toUpperCase(),
    (p) => `${p};jsessionid=1`,
    (p) => `${p}%2F..%2F`,
  );
  const bend = wellFormed ? fc.constant(same) : fc.oneof({ weight: 3, arbitrary: fc.constant(same) }, { weight: 1, arbitrary: bends });
  return fc.tuple(fc.tuple(...values), bend).map(([vals, b]) => {
    let i = 0;
    const path = op.path.replace(/\{[^}]+\}/g, () => vals[i++]!.wire);
    const bent = b(path);
    return { path: bent, bent: bent !== path, echoes: [bent, safeDecode(bent), ...vals.flatMap(echoesOf)] };
  });
}

function extraHeadersArb(op: Operation): fc.Arbitrary<Record<string, string>> {
  const entries = fc.array(
    fc.tuple(
      fc.constantFrom(
        'accept',
        'accept-encoding',
        'accept-language',
        'if-none-match',
        'if-modified-since',
        'x-request-id',
        'x-forwarded-for',
        'x-forwarded-host',
        'x-forwarded-proto',
        'range',
        'user-agent',
        'referer',
        'sec-fetch-site',
        'x-http-method-override',
        ...op.params.filter((p) => p.in === 'header').map((p) => p.name),
      ),
      fc.oneof(
        headerJunk(),
        fc.constantFrom(
          '*/*',
          'application/json',
          'text/event-stream',
          'gzip, br',
          'identity;q=0, *;q=0',
          '"abc"',
          'W/"x"',
          'bytes=0-1',
          '0',
          '12',
          'same-origin',
          'DELETE',
        ),
      ),
    ),
    { maxLength: 3 },
  );
  return fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: entries.map((e) => Object.fromEntries(e)) });
}

interface BodyChoice {
  body?: string | Buffer;
  contentType?: string;
  note: string;
  echoes: string[];
}

function stringLeaves(v: Json, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v.slice(0, 50)) stringLeaves(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v).slice(0, 50)) {
      out.push(k);
      stringLeaves(x, out);
    }
  }
  return out;
}

function formEncode(v: Json): string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return `value=${pctEncode(JSON.stringify(v) ?? '')}`;
  return Object.entries(v)
    .map(([k, x]) => `${pctEncode(k)}=${pctEncode(typeof x === 'string' ? x : JSON.stringify(x))}`)
    .join('&');
}

function bodyArb(op: Operation, ctx: CaseContext, wellFormed: boolean): fc.Arbitrary<BodyChoice> {
  const schema = op.body ?? { type: 'object', properties: {} };
  const json = (v: Json, contentType = 'application/json', note = 'body=json'): BodyChoice => {
    const body = JSON.stringify(v) ?? 'null';
    return { body, contentType, note, echoes: [body, ...stringLeaves(v)] };
  };
  if (wellFormed) {
    if (!op.body) return fc.constant<BodyChoice>({ note: 'no body', echoes: [] });
    return jsonFor(schema, ctx.resolve, ctx.pools, { hostile: false }).map((v) => json(v, 'application/json', 'body=valid-json'));
  }
  const value = jsonFor(schema, ctx.resolve, ctx.pools);
  const withBody: fc.WeightedArbitrary<BodyChoice>[] = [
    { weight: op.body ? 10 : 1, arbitrary: value.map((v) => json(v)) },
    { weight: 1, arbitrary: wrongJson().map((v) => json(v, 'application/json', 'body=wrong-type')) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...BROKEN_JSON).map((b) => ({
        body: b,
        contentType: 'application/json',
        note: 'body=broken-json',
        echoes: typeof b === 'string' ? [b] : [],
      })),
    },
    { weight: 1, arbitrary: fc.constant<BodyChoice>({ body: '', contentType: 'application/json', note: 'body=empty-json', echoes: [] }) },
    {
      weight: 2,
      arbitrary: fc.tuple(value, fc.constantFrom(...CONTENT_TYPES)).map(([v, ct]) => {
        const c = json(v, ct, `body=json content-type=${ct}`);
        return ct === 'application/x-www-form-urlencoded' ? { ...c, body: formEncode(v) } : c;
      }),
    },
    { weight: 1, arbitrary: value.map((v) => ({ ...json(v), contentType: undefined, note: 'body=json no-content-type' })) },
    {
      // Just over the 1 MB body limit (rarely: each costs a megabyte on the wire).
      weight: 1,
      arbitrary: fc.constant<BodyChoice>({
        body: `{"vendors":["${'a'.repeat(1_048_576)}"]}`,
        contentType: 'application/json',
        note: 'body=over-1MB',
        echoes: [],
      }),
    },
  ];
  // Operations without a body mostly get none; a body anyway must not confuse them.
  if (!op.body) withBody.unshift({ weight: 24, arbitrary: fc.constant<BodyChoice>({ note: 'no body', echoes: [] }) });
  return fc.oneof(...withBody);
}

/** Methods a route was not declared with (the router answers; HEAD mirrors GET). */
/**
 * The operation a router would pick for a raw path: static segments before
 * parameters, as find-my-way does; a parameter takes one non-empty segment.
 */
function operationAt(ops: Operation[], method: string, path: string): Operation | null {
  const segments = path.split('/');
  let best: { op: Operation; params: number } | null = null;
  for (const o of ops) {
    if (o.method !== method) continue;
    const tpl = o.path.split('/');
    if (tpl.length !== segments.length) continue;
    let params = 0;
    const fits = tpl.every((t, i) => {
      if (!/^\{[^}]+\}$/.test(t)) return t === segments[i];
      params++;
      return segments[i] !== '';
    });
    if (fits && (!best || params < best.params)) best = { op: o, params };
  }
  return best?.op ?? null;
}

const otherMethod = (op: Operation) => fc.constantFrom(...(op.method === 'GET' ? ['HEAD', 'OPTIONS', 'PATCH'] : ['OPTIONS', 'PATCH', 'GET']));

/**
 * Requests for one operation. Two in five are well-formed (valid credentials,
 * parameters and body, hostile characters only in free text) so that the
 * handlers and the storage behind them are reached; the rest are hostile.
 */
export function caseArb(op: Operation, ctx: CaseContext, ops: Operation[]): fc.Arbitrary<FuzzCase> {
  return fc
    .oneof({ weight: 2, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) })
    .chain((wellFormed) => casesOf(op, ctx, ops, wellFormed));
}

function casesOf(op: Operation, ctx: CaseContext, ops: Operation[], wellFormed: boolean): fc.Arbitrary<FuzzCase> {
  const queryParams = op.params.filter((p) => p.in === 'query');
  const takesBody = UNSAFE.has(op.method);
  return fc
    .record({
      auth: authArb(op, wellFormed),
      junk: headerJunk(),
      path: pathArb(op, ctx, wellFormed),
      query: fc.tuple(...queryParams.map((p) => queryParamArb(p, ctx, wellFormed))),
      extraQuery: wellFormed ? fc.constant<QueryPiece>({ parts: [], echoes: [] }) : extraQueryArb(),
      headers: wellFormed ? fc.constant({}) : extraHeadersArb(op),
      body: takesBody ? bodyArb(op, ctx, wellFormed) : fc.constant<BodyChoice>({ note: 'no body', echoes: [] }),
      // 1 hostile request in 25 uses another method.
      method: wellFormed ? fc.constant(undefined) : fc.oneof({ weight: 24, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: otherMethod(op) }),
    })
    .map(({ auth, junk, path, query, extraQuery, headers, body, method: other }) => {
      const method = other ?? op.method;
      const parts = [...query.flatMap((q) => q.parts), ...extraQuery.parts];
      const qs = parts.length ? `?${parts.join('&')}` : '';
      const h: Record<string, string> = { ...headers, ...authHeaders(auth, op, method, ctx.creds, junk) };
      if (body.contentType !== undefined) h['content-type'] = body.contentType;
      const sendsBody = body.body !== undefined && method !== 'GET' && method !== 'HEAD';
      if (!sendsBody) delete h['content-type'];
      const req: FuzzRequest = {
        opId: op.id,
        method,
        path: `${path.path}${qs}`,
        headers: h,
        ...(sendsBody ? { body: body.body } : {}),
        note: `${wellFormed ? 'well-formed' : 'hostile'} auth=${auth} ${sendsBody ? body.note : 'no body'}${other ? ` method=${other}` : ''}`,
        echoes: [...path.echoes, ...query.flatMap((q) => q.echoes), ...extraQuery.echoes, ...Object.values(h), ...(sendsBody ? body.echoes : [])],
      };
      // HEAD is served by the GET route; another method reaches no operation, unless
      // the path has one for it (e.g. GET of a path that also has PUT). A bent path can
      // land on another operation's template (`/Groups` + `/..` is `/Groups/{id}` with
      // the id `..`): that operation's statuses apply.
      const routed = method === 'HEAD' ? 'GET' : method;
      const target =
        (path.bent ? operationAt(ops, routed, path.path) : null) ??
        (other === undefined ? op : other === 'HEAD' ? op : (ops.find((o) => o.path === op.path && o.method === other) ?? null));
      const c: FuzzCase = { op: target, req };
      return Object.defineProperty(c, fc.toStringMethod, { value: () => describeRequest(req), enumerable: false });
    });
}
