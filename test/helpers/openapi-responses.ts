import diagnostics from 'node:diagnostics_channel';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { afterEach } from 'node:test';
import zlib from 'node:zlib';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Every response a test app sends through Fastify is checked against the app's own
// OpenAPI document (generated from the route schemas), so the document and the
// behaviour cannot drift apart unnoticed (docs/testing.md, "Response validation"):
//   - the status is documented for the operation (exactly, as `4XX`, or `default`);
//   - the content type is one the status documents (no body when it documents none);
//   - a JSON body validates against the documented schema, on the wire; and the
//     object the handler returned validates too, before Fastify's serializer can
//     hide a drift (it writes null as "" or 0 and drops what the schema lacks);
//   - a hijacked reply (the SSE stream) is checked for status and content type only.
// Routes the document leaves out on purpose are skipped by the rule that leaves them
// out (@fastify/swagger's `schema.hide`, its hidden tag, HEAD routes); any other route
// without an operation in the document is itself a violation. Requests that match no
// route (the not-found handler) have no operation to check.
//
// A violation fails the test during which the response was sent (an `afterEach`
// registered for the whole file), else the app's close() (startApp), else the process
// exit code: none of them can be swallowed by a test that does not look.

export interface ResponseViolation {
  /** `GET /api/v1/infrastructure/vendor-info/{vendor} (getVendorInfo)` */
  operation: string;
  /** The request line as sent, e.g. `GET /api/v1/infrastructure/vendor-info/github?x=1`. */
  request: string;
  status: number;
  contentType: string | null;
  problem: string;
  /** The first 300 characters of the body. */
  body: string;
}

/** @fastify/swagger's default hidden tag (the openapi plugin does not change it). */
const SWAGGER_HIDDEN_TAG = 'X-HIDDEN';
const DOC_ID = 'openapi.json';
const BODY_PREVIEW = 300;
/** Bodies above this are not kept for validation (no documented answer comes close). */
const MAX_CAPTURE = 8 * 1024 * 1024;

interface DocResponse {
  description?: string;
  content?: Record<string, { schema?: unknown }>;
}

interface DocOperation {
  label: string;
  pointer: string;
  responses: Record<string, DocResponse>;
}

const escapePointer = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));
const mediaTypeOf = (contentType: string | null | undefined) => (contentType ? contentType.split(';')[0]!.trim().toLowerCase() : '');
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** Fastify's `/vendors/:vendor` as the document writes it: `/vendors/{vendor}`. */
export function pathTemplate(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)(\((?:[^()]|\([^()]*\))*\))?/g, '{$1}');
}

function ajvMessages(errors: ErrorObject[] | null | undefined): string {
  const lines = (errors ?? []).slice(0, 10).map((e) => {
    const params = e.params as Record<string, unknown>;
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String(params.additionalProperty)})`
        : e.keyword === 'enum'
          ? ` (${(params.allowedValues as unknown[]).join(', ')})`
          : '';
    return `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${extra}`;
  });
  if ((errors?.length ?? 0) > 10) lines.push(`… ${errors!.length - 10} more`);
  return lines.join('; ');
}

/** Validators of one generated document, compiled on first use and shared by apps with the same document. */
class DocumentValidators {
  readonly operations = new Map<string, DocOperation>();
  private readonly wire: Ajv;
  private readonly object: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: { paths?: Record<string, Record<string, { operationId?: string; responses?: Record<string, DocResponse> }>> }) {
    for (const [path, ops] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op || typeof op !== 'object' || !op.responses) continue;
        const m = method.toUpperCase();
        this.operations.set(`${m} ${path}`, {
          label: `${m} ${path}${op.operationId ? ` (${op.operationId})` : ''}`,
          pointer: `#/paths/${escapePointer(path)}/${escapePointer(method)}`,
          responses: op.responses,
        });
      }
    }
    // OpenAPI 3.0 schemas: `nullable`, `example(s)` and friends are not JSON Schema
    // keywords, hence strict: false. The wire body is validated as it is; the returned
    // object is first stripped like the serializer strips it (additionalProperties: false).
    const make = (removeAdditional: boolean) => {
      const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, removeAdditional, logger: false });
      addFormats.default(ajv);
      ajv.addSchema(doc as object, DOC_ID);
      return ajv;
    };
    this.wire = make(false);
    this.object = make(true);
  }

  validator(op: DocOperation, statusKey: string, mediaType: string, kind: 'wire' | 'object'): ValidateFunction {
    const ref = `${DOC_ID}${op.pointer}/responses/${escapePointer(statusKey)}/content/${escapePointer(mediaType)}/schema`;
    const key = `${kind} ${ref}`;
    let v = this.compiled.get(key);
    if (!v) {
      v = (kind === 'wire' ? this.wire : this.object).compile({ $ref: ref });
      this.compiled.set(key, v);
    }
    return v;
  }
}

const byDocument = new Map<string, DocumentValidators>();

function validatorsFor(app: FastifyInstance): DocumentValidators {
  const text = JSON.stringify(app.swagger());
  let v = byDocument.get(text);
  if (!v) {
    v = new DocumentValidators(JSON.parse(text));
    byDocument.set(text, v);
  }
  return v;
}

/** The documented response of a status: exact, then `4XX`, then `default`. */
function documentedStatus(op: DocOperation, status: number): string | null {
  const exact = String(status);
  if (op.responses[exact]) return exact;
  const range = `${Math.floor(status / 100)}XX`;
  for (const key of [range, range.toLowerCase(), 'default']) if (op.responses[key]) return key;
  return null;
}

/** The documented media type matching the sent one (`text/*` and `*\/*` included). */
function documentedMediaType(response: DocResponse, mediaType: string): string | null {
  const types = Object.keys(response.content ?? {});
  const [type] = mediaType.split('/');
  return (
    types.find((t) => mediaTypeOf(t) === mediaType) ?? types.find((t) => mediaTypeOf(t) === `${type}/*`) ?? types.find((t) => mediaTypeOf(t) === '*/*') ?? null
  );
}

function headerOf(headers: OutgoingHttpHeaders | readonly unknown[] | undefined, name: string): string | undefined {
  if (!headers || Array.isArray(headers)) return undefined;
  for (const [k, v] of Object.entries(headers as OutgoingHttpHeaders)) {
    if (k.toLowerCase() === name && v !== undefined) return Array.isArray(v) ? v.join(', ') : String(v);
  }
  return undefined;
}

/** A body as its client reads it: undone from br or gzip (a body that does not decode fails its check). */
function decoded(raw: Buffer, encoding: string | null | undefined): Buffer {
  if (!raw.length || !encoding || encoding === 'identity') return raw;
  try {
    if (encoding === 'br') return zlib.brotliDecompressSync(raw);
    if (encoding === 'gzip') return zlib.gunzipSync(raw);
  } catch {
    return Buffer.from(`(a ${encoding} body that does not decode: ${raw.length} bytes ${raw.subarray(0, 8).toString('hex')})`);
  }
  return raw;
}

interface Exchange {
  request: FastifyRequest;
  reply: FastifyReply;
  op: DocOperation;
  status?: number;
  contentType?: string | null;
  /** Content-Encoding of the answer: its body is checked as the client decodes it. */
  encoding?: string | null;
  chunks: Buffer[];
  size: number;
  /** The returned object already failed its check: the wire body would only repeat it. */
  objectReported: boolean;
  done: boolean;
}

const live = new Set<ResponseChecker>();

/** Records the violations of one app; see the top of this file. */
export class ResponseChecker {
  app: FastifyInstance | null = null;
  private readonly violations: ResponseViolation[] = [];
  private validators: DocumentValidators | null = null;

  /** Hooks added on the root instance at creation, so that every route of every plugin inherits them. */
  attach(app: FastifyInstance) {
    this.app = app;
    live.add(this);
    app.addHook('onRequest', (request, reply, done) => {
      try {
        this.watch(request, reply);
      } catch (err) {
        this.internal(request, err);
      }
      done();
    });
    app.addHook('preSerialization', (request, reply, payload, done) => {
      try {
        this.checkObject(request, reply, payload);
      } catch (err) {
        this.internal(request, err);
      }
      done(null, payload);
    });
  }

  /** Violations not yet reported, removed from the record. */
  take(): ResponseViolation[] {
    return this.violations.splice(0);
  }

  /** Stops tracking this app (its unreported violations are the caller's to report). */
  detach() {
    live.delete(this);
  }

  private record(v: Omit<ResponseViolation, 'body'> & { body: unknown }) {
    const body = typeof v.body === 'string' ? v.body : v.body === undefined ? '' : (JSON.stringify(v.body) ?? '');
    this.violations.push({ ...v, body: body.slice(0, BODY_PREVIEW) });
  }

  private internal(request: FastifyRequest, err: unknown) {
    this.record({
      operation: request.routeOptions.url ?? '(no route)',
      request: `${request.method} ${request.url}`,
      status: 0,
      contentType: null,
      problem: `response check failed: ${(err as Error)?.stack ?? String(err)}`,
      body: '',
    });
  }

  /** The documented operation of the request's route; null when the document leaves it out on purpose. */
  private operationOf(request: FastifyRequest): DocOperation | null {
    const route = request.routeOptions;
    if (route.url === undefined) return null; // not found: no route, no operation
    const schema = route.schema as { hide?: boolean; tags?: string[] } | undefined;
    if (schema?.hide === true || schema?.tags?.includes(SWAGGER_HIDDEN_TAG)) return null;
    this.validators ??= validatorsFor(this.app!);
    const key = `${request.method} ${pathTemplate(route.url)}`;
    const op = this.validators.operations.get(key);
    // @fastify/swagger leaves out HEAD routes (exposeHeadRoutes is off).
    if (!op && request.method === 'HEAD') return null;
    if (!op) {
      return { label: `${key} (route not hidden, yet missing from the document)`, pointer: '', responses: {} };
    }
    return op;
  }

  private watch(request: FastifyRequest, reply: FastifyReply) {
    const op = this.operationOf(request);
    if (!op) return;
    const checker = this;
    const ex: Exchange = { request, reply, op, chunks: [], size: 0, objectReported: false, done: false };
    (request as unknown as { [kExchange]: Exchange })[kExchange] = ex;
    const res = reply.raw as ServerResponse;
    const { writeHead, write, end } = res;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk == null || typeof chunk === 'function' || ex.size > MAX_CAPTURE) return;
      // Other bodies are kept only as far as a report shows them. A streamed (compressed)
      // body may write before its head is known: those bytes are kept, a body is one piece.
      if (ex.status !== undefined && !isJson(mediaTypeOf(ex.contentType)) && ex.size >= BODY_PREVIEW * 4) return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      ex.chunks.push(buf);
      ex.size += buf.length;
    };
    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      const headers = rest.find((r) => r && typeof r === 'object') as OutgoingHttpHeaders | undefined;
      ex.status = status;
      const ct = headerOf(headers, 'content-type') ?? res.getHeader('content-type');
      ex.contentType = ct === undefined ? null : String(ct);
      const ce = headerOf(headers, 'content-encoding') ?? res.getHeader('content-encoding');
      ex.encoding = ce === undefined ? null : String(ce);
      // A hijacked reply (the event stream) writes for as long as it lives: its
      // status and content type are final now, its body is never checked.
      if (reply.sent) checker.finish(ex, false);
      return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    } as typeof res.writeHead;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      if (!ex.done) {
        if (ex.status === undefined) {
          ex.status = res.statusCode;
          const ct = res.getHeader('content-type');
          ex.contentType = ct === undefined ? null : String(ct);
          const ce = res.getHeader('content-encoding');
          ex.encoding = ce === undefined ? null : String(ce);
        }
        if (typeof args[0] !== 'function') keep(args[0], args[1]);
        checker.finish(ex, true);
      }
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args as []);
    } as typeof res.end;
  }

  /** The final status, content type and (when `withBody`) the JSON body against the document. */
  private finish(ex: Exchange, withBody: boolean) {
    if (ex.done) return;
    ex.done = true;
    try {
      this.check(ex, withBody);
    } catch (err) {
      this.internal(ex.request, err);
    }
  }

  private check(ex: Exchange, withBody: boolean) {
    const { op, request } = ex;
    const status = ex.status!;
    const body = withBody ? decoded(Buffer.concat(ex.chunks), ex.encoding).toString('utf8') : '';
    const base = { operation: op.label, request: `${request.method} ${request.url}`, status, contentType: ex.contentType ?? null };
    if (!op.pointer) return this.record({ ...base, problem: 'no operation in the OpenAPI document', body });
    const statusKey = documentedStatus(op, status);
    if (!statusKey) {
      return this.record({
        ...base,
        problem: `status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`,
        body,
      });
    }
    const response = op.responses[statusKey]!;
    const documented = Object.keys(response.content ?? {});
    const mediaType = mediaTypeOf(ex.contentType);
    const empty = withBody && ex.size === 0;
    if (documented.length === 0) {
      if (withBody && !empty) {
        this.record({ ...base, problem: `status ${statusKey} documents no body, yet one was sent`, body });
      }
      return;
    }
    if (empty && !mediaType) {
      return this.record({ ...base, problem: `empty body; status ${statusKey} documents ${documented.join(', ')}`, body });
    }
    const matched = documentedMediaType(response, mediaType);
    if (!matched) {
      return this.record({
        ...base,
        problem: `content type '${ex.contentType ?? '(none)'}' is not documented for ${statusKey} (documented: ${documented.join(', ')})`,
        body,
      });
    }
    if (!withBody || !isJson(mediaType) || ex.objectReported || ex.size > MAX_CAPTURE) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return this.record({ ...base, problem: `body is not valid JSON (${matched})`, body });
    }
    const validate = this.validators!.validator(op, statusKey, matched, 'wire');
    if (!validate(parsed)) {
      this.record({ ...base, problem: `body does not match the ${statusKey} ${matched} schema: ${ajvMessages(validate.errors)}`, body });
    }
  }

  /**
   * The object a handler (or the error handler) returned, before serialization: the
   * serializer would turn a null in a non-nullable field into "" or 0, and a string
   * where an integer belongs into a number, so the wire alone cannot show these.
   */
  private checkObject(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const ex = (request as unknown as { [kExchange]?: Exchange })[kExchange];
    if (!ex?.op.pointer || payload === null || typeof payload !== 'object') return;
    const statusKey = documentedStatus(ex.op, reply.statusCode);
    const response = statusKey ? ex.op.responses[statusKey] : undefined;
    const mediaType = mediaTypeOf(String(reply.getHeader('content-type') ?? 'application/json'));
    const matched = response ? documentedMediaType(response, mediaType) : null;
    // An undocumented status or content type is reported once, from the wire.
    if (!statusKey || !matched || !isJson(mediaType)) return;
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(payload)); // Dates become strings, as the serializer writes them
    } catch {
      return;
    }
    const validate = this.validators!.validator(ex.op, statusKey, matched, 'object');
    if (!validate(copy)) {
      ex.objectReported = true;
      this.record({
        operation: ex.op.label,
        request: `${request.method} ${request.url}`,
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        problem: `returned object does not match the ${statusKey} ${matched} schema (before serialization): ${ajvMessages(validate.errors)}`,
        body: payload,
      });
    }
  }
}

const kExchange = Symbol('openapi-response-exchange');

export function formatViolations(violations: ResponseViolation[]): string {
  const lines = [`${violations.length} response(s) do not match the OpenAPI document:`];
  for (const v of violations) {
    lines.push(`- ${v.operation} → ${v.status} ${v.contentType ?? '(no content type)'}`);
    lines.push(`    request: ${v.request}`);
    lines.push(`    ${v.problem}`);
    if (v.body) lines.push(`    body: ${v.body}`);
  }
  return lines.join('\n');
}

// Fastify publishes every new instance here before any plugin is registered: hooks
// added now reach every route, in every encapsulated context. (Hooks added after
// buildApp() would not reach the routes of plugins already loaded.)
let arming: ResponseChecker | null = null;
diagnostics.subscribe('fastify.initialization', (message) => {
  const checker = arming;
  if (!checker) return;
  arming = null;
  checker.attach((message as { fastify: FastifyInstance }).fastify);
});

/**
 * Runs `build`, which must create the app's Fastify instance synchronously (as
 * buildApp does before its first await), and attaches a checker to that instance.
 */
export async function withResponseChecks<T extends FastifyInstance>(build: () => Promise<T>): Promise<{ app: T; checker: ResponseChecker }> {
  const checker = new ResponseChecker();
  arming = checker;
  let pending: Promise<T>;
  try {
    pending = build();
  } finally {
    arming = null;
  }
  const app = await pending;
  if (checker.app !== app) {
    checker.detach();
    await app.close();
    throw new Error('response validation was not attached: the Fastify instance was not created synchronously by build()');
  }
  return { app, checker };
}

// A violation fails the test that was running when the response was sent.
afterEach(() => {
  const found = [...live].flatMap((c) => c.take());
  if (found.length) throw new Error(formatViolations(found));
});

// Last resort: an app never closed, with violations after the last test.
process.on('exit', () => {
  const found = [...live].flatMap((c) => c.take());
  if (!found.length) return;
  process.stderr.write(`${formatViolations(found)}\n`);
  process.exitCode = 1;
});
