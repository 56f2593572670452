import os from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import type { ApiDocument, Operation } from './fuzz-openapi.ts';
import type { FuzzRequest, FuzzResponse } from './fuzz-http.ts';

// What every fuzz answer must satisfy: below 500, a status the document lists
// for the operation, the contract's error body, and nothing internal (stack
// frames, SQL, file paths) in the body.

/**
 * The allow-list: answers Node and Fastify give before a request reaches an
 * operation. The document lists them on every operation they can happen to
 * (src/http/schemas/transport.ts), so the per-operation check covers them:
 *  - 400 a malformed URL (bad percent-encoding), an unparsable body, or bytes
 *        Node's HTTP parser refuses (broken framing, bad header);
 *  - 413 a body over 1 MB; 415 a content type no parser takes;
 *  - 414 a path parameter over 100 characters (Fastify's router limit);
 *  - 431 headers over 16 kB, the URL included (a long query string lands here).
 * One is not tied to an operation: 404 from the not-found handler, when a fuzzed
 * path (trailing slash, dot segments, an empty parameter) or another method
 * matches no route; the document says so in its description. It is recognised
 * by its message, so an operation's own undocumented 404 is still caught. Nor is the
 * router's 405: a known path asked with another method, recognised by its error name and
 * an `Allow` header that does not list the method asked.
 * Requests that name no operation (raw requests) may get any of these.
 */
export const TRANSPORT_STATUSES = [400, 404, 405, 413, 414, 415, 431] as const;

const ROUTE_NOT_FOUND = /^Route [A-Z]+ \S* not found$/;

/** Leaks: what an answer must never contain unless the request itself carried it. */
export const LEAK_PATTERNS: [string, RegExp][] = [
  ['stack frame', /\bat\s+(?:async\s+)?(?:[\w$.<>[\]]+\s+)?\(?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+\)?/],
  ['stack frame', /\bat\s+[\w$.<>[\]]+\s+\([^()\s]+\.[cm]?[jt]sx?:\d+:\d+\)/],
  ['node_modules path', /node_modules/],
  ['source file position', /\.(?:ts|js|mjs|cjs):\d+/],
  ['source file', /\.ts:/],
  ['SQL', /\bSELECT\b/],
  ['SQL', /\b(?:INSERT INTO|DELETE FROM|UPDATE \w+ SET)\b/],
  ['SQLite', /sqlite/i],
  ['PostgreSQL', /syntax error at or near/],
  ['PostgreSQL', /relation "/],
  ['PostgreSQL', /invalid byte sequence for encoding/],
  ['PostgreSQL', /violates (?:unique|foreign key|not-null|check) constraint/],
  ['PostgreSQL', /duplicate key value/],
  ['driver error', /\b(?:ECONNREFUSED|ETIMEDOUT|SQLITE_[A-Z]+)\b/],
  ['JS error', /\b(?:TypeError|RangeError|ReferenceError|URIError|SyntaxError): /],
  ['internal path', new RegExp(escapeRe(process.cwd()))],
  ['internal path', new RegExp(escapeRe(path.join(os.tmpdir(), 'vis-test-')))],
  ['internal path', /\/home\/|\/usr\/(?:local\/)?lib\/|file:\/\/\/|node:internal/],
];

function escapeRe(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The body with every echo of the request's own text removed (an echo is not a leak). */
export function withoutEchoes(body: string, echoes: string[]): string {
  let out = body;
  const forms = new Set<string>();
  for (const e of echoes) {
    if (e.length < 3) continue;
    forms.add(e);
    forms.add(JSON.stringify(e).slice(1, -1));
  }
  // Longest first, so a short echo inside a longer one does not split it.
  for (const f of [...forms].sort((a, b) => b.length - a.length)) if (f.length >= 3) out = out.split(f).join('');
  return out;
}

export function findLeaks(body: string, echoes: string[]): string[] {
  const text = withoutEchoes(body, echoes);
  const found: string[] = [];
  for (const [what, re] of LEAK_PATTERNS) {
    const m = re.exec(text);
    if (m) found.push(`${what}: ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40))}`);
  }
  return found;
}

export interface CheckContext {
  doc: ApiDocument;
  /** The operation the request targets, or null (raw requests to arbitrary paths). */
  op: Operation | null;
  /**
   * The one answer allowed without a body: Node refuses an HTTP/1.1 request
   * without a Host header with a bare 400 before Fastify sees it (RFC 9112 §3.2).
   */
  bareParserRefusal?: boolean;
}

export function makeChecker(doc: ApiDocument) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validateError = ajv.compile(doc.errorBody);
  /**
   * Texts sent earlier that look like leaks themselves (an SQL string saved in the
   * preferences comes back in every later answer): stored input, not a leak.
   */
  const remembered = new Set<string>();

  return function check(ctx: CheckContext, req: FuzzRequest, res: FuzzResponse): string[] {
    const problems: string[] = [];
    const { op } = ctx;
    const ctype = res.headers['content-type'] ?? '';
    const isJson = /application\/(?:scim\+)?json/.test(ctype);
    // The SCIM endpoints (and only they) answer errors in SCIM's own body, as application/scim+json (docs/teams.md, "SCIM").
    const scimError = /application\/scim\+json/.test(ctype);
    let json: any;
    if (res.body && isJson) {
      try {
        json = JSON.parse(res.body);
      } catch {
        problems.push('content-type is JSON but the body does not parse');
      }
    }

    if (res.status >= 500) problems.push(`status ${res.status} (server error)`);
    const allow = String(res.headers.allow ?? '');
    const routeNotFound =
      (res.status === 404 && json?.error === 'not_found' && ROUTE_NOT_FOUND.test(json?.message ?? '')) ||
      (res.status === 405 && json?.error === 'method_not_allowed' && allow !== '' && !allow.split(', ').includes(req.method));
    const documented = op ? op.statuses.has(res.status) : (TRANSPORT_STATUSES as readonly number[]).includes(res.status);
    if (res.status < 500 && !documented && !routeNotFound) {
      problems.push(`status ${res.status} is not documented for ${op ? `${op.method} ${op.path}` : 'this request'}`);
    }

    if (res.status >= 400 && req.method !== 'HEAD') {
      if (res.body && !isJson) problems.push(`error answer is not JSON (content-type ${JSON.stringify(ctype)})`);
      if (!res.body && !(ctx.bareParserRefusal && res.status === 400)) problems.push('error answer without a body');
      if (json !== undefined && scimError) {
        const ok =
          Array.isArray(json?.schemas) &&
          json.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error') &&
          json.status === String(res.status) &&
          typeof json.detail === 'string';
        if (!ok) problems.push('SCIM error body without the Error schema, its status as a string or a detail');
      } else if (json !== undefined) {
        if (!validateError(json)) problems.push(`error body does not match ErrorBody: ${ajv.errorsText(validateError.errors)}`);
        if (json?.success !== false) problems.push('error body without success: false');
        const rid = res.headers['x-request-id'];
        if (json?.requestId !== undefined && rid !== undefined && json.requestId !== rid) {
          problems.push(`requestId ${JSON.stringify(json.requestId)} differs from X-Request-Id ${JSON.stringify(rid)}`);
        }
      }
    }
    if (res.status >= 200 && res.status < 300 && json && typeof json === 'object' && 'success' in json && json.success !== true) {
      problems.push('success answer with success !== true');
    }
    for (const e of req.echoes) if (e.length >= 3 && e.length <= 10_000 && LEAK_PATTERNS.some(([, re]) => re.test(e))) remembered.add(e);
    problems.push(...findLeaks(res.body, remembered.size ? [...req.echoes, ...remembered] : req.echoes));
    // The CRLF payloads try to add a `Set-Cookie: pwned=1` header; none may come through.
    for (const [name, value] of Object.entries(res.headers)) {
      if (/pwned/i.test(name) || (name === 'set-cookie' && /pwned/i.test(value))) problems.push(`header injection: ${name}: ${value}`);
    }
    return problems;
  };
}
