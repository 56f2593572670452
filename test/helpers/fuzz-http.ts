import zlib from 'node:zlib';
import net from 'node:net';
import { Client } from 'undici';

// Sending fuzz requests. Generated requests go through an undici Client, which
// puts the path on the request line exactly as given (fetch would normalise
// `../` and re-encode); requests undici refuses to build (raw bytes, CR/LF in
// headers, broken framing) are written on a socket by rawExchange.

export interface FuzzRequest {
  /** Operation the request was generated from (null: not tied to one). */
  opId: string | null;
  method: string;
  /** Path and query as they go on the request line. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What was varied, for the report (e.g. `auth=session body=broken-json`). */
  note: string;
  /** Decoded texts the request carried: an answer may echo them without leaking anything. */
  echoes: string[];
}

/**
 * A body as the client reads it: a fuzzed request may accept br or gzip (as real clients do),
 * and the checks read what the client would; a coded body that does not decode says so.
 */
function decodeBody(raw: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === 'br') return zlib.brotliDecompressSync(raw).toString('utf8');
    if (encoding === 'gzip') return zlib.gunzipSync(raw).toString('utf8');
  } catch {
    return `(a ${encoding} body that does not decode)`;
  }
  return raw.toString('utf8');
}

export interface FuzzResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True for an event stream left open (its body was not read). */
  streaming?: boolean;
}

const MAX_SHOWN = 600;
const clip = (s: string, n = MAX_SHOWN) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** The request as a reader can replay it (curl-like, long parts clipped). */
export function describeRequest(r: FuzzRequest): string {
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `  ${k}: ${clip(JSON.stringify(v), 200)}`)
    .join('\n');
  const body =
    r.body === undefined
      ? ''
      : `\n  body: ${typeof r.body === 'string' ? clip(JSON.stringify(r.body)) : `<${r.body.length} bytes> ${clip(r.body.toString('hex'), 200)}`}`;
  return `${r.method} ${clip(r.path)}  [${r.opId ?? 'raw'}; ${r.note}]\n${headers}${body}`;
}

export class FuzzClient {
  private client: Client;
  private origin: string;

  constructor(origin: string) {
    this.origin = origin;
    this.client = this.open();
  }

  private open() {
    return new Client(this.origin, { headersTimeout: 30_000, bodyTimeout: 30_000, keepAliveTimeout: 10_000 });
  }

  async send(r: FuzzRequest): Promise<FuzzResponse> {
    try {
      return await this.once(r);
    } catch (err) {
      // The server may answer an oversized body early and close the connection
      // while undici is still writing it; the answer is then read on a socket.
      const code = (err as { code?: string }).code ?? '';
      if (/UND_ERR_SOCKET|ECONNRESET|EPIPE/.test(code) && r.body !== undefined && r.body.length > 512 * 1024) {
        await this.reset();
        return rawExchange(this.origin, toRawBytes(r), { expectResponse: true });
      }
      throw err;
    }
  }

  private async once(r: FuzzRequest): Promise<FuzzResponse> {
    const res = await this.client.request({
      method: r.method,
      path: r.path,
      headers: r.headers,
      body: r.body,
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
    if (res.statusCode === 200 && /text\/event-stream/.test(headers['content-type'] ?? '')) {
      // A live stream never ends: the status and headers are the answer.
      res.body.destroy();
      return { status: res.statusCode, headers, body: '', streaming: true };
    }
    const body = decodeBody(Buffer.from(await res.body.arrayBuffer()), headers['content-encoding']);
    return { status: res.statusCode, headers, body };
  }

  async reset() {
    await this.client.destroy().catch(() => {});
    this.client = this.open();
  }

  close() {
    return this.client.close();
  }
}

/** The HTTP/1.1 bytes of a request (for the socket fallback). */
export function toRawBytes(r: FuzzRequest, host = 'fuzz.test'): Buffer {
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body);
  const lines = [`${r.method} ${r.path} HTTP/1.1`, `host: ${host}`, 'connection: close'];
  for (const [k, v] of Object.entries(r.headers)) if (k !== 'host' && k !== 'connection') lines.push(`${k}: ${v}`);
  if (r.body !== undefined) lines.push(`content-length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/**
 * Writes bytes on a fresh connection and reads one answer: status, headers and a
 * body framed by Content-Length or chunks, or whatever came before the close.
 * `expectResponse: false` accepts a connection closed without an answer (an
 * incomplete request the server may drop).
 */
export function rawExchange(origin: string, bytes: Buffer, opts: { expectResponse: boolean; timeoutMs?: number }): Promise<FuzzResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (fromClose: boolean) => {
      if (settled) return;
      const data = Buffer.concat(chunks);
      const parsed = parseResponse(data);
      if (!parsed) {
        if (!fromClose) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        if (opts.expectResponse || data.length) {
          reject(new Error(`no parsable HTTP answer (got ${data.length} bytes: ${JSON.stringify(data.toString('latin1').slice(0, 200))})`));
        } else resolve({ status: 0, headers: {}, body: '' });
        return;
      }
      if (!parsed.complete && !fromClose) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parsed.response);
    };
    const timer = setTimeout(() => {
      if (settled) return;
      // A request the server keeps waiting on (e.g. a promised body that never comes).
      settled = true;
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed) resolve(parsed.response);
      else if (opts.expectResponse) reject(new Error(`no answer within ${opts.timeoutMs ?? 10_000} ms`));
      else resolve({ status: 0, headers: {}, body: '' });
    }, opts.timeoutMs ?? 10_000);
    socket.on('data', (d) => {
      chunks.push(d);
      finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      // The server may answer and close before taking everything (e.g. 413, 431).
      socket.write(bytes, () => {});
    });
  });
}

function parseResponse(data: Buffer): { response: FuzzResponse; complete: boolean } | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = data.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
  if (!m) return null;
  // An interim answer (100 Continue) precedes the real one.
  if (m[1]!.startsWith('1')) return parseResponse(data.subarray(end + 4));
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = data.subarray(end + 4);
  let complete = false;
  if (headers['content-length'] !== undefined) {
    const n = Number(headers['content-length']);
    complete = body.length >= n;
    body = body.subarray(0, n);
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const decoded = dechunk(body);
    complete = decoded !== null;
    if (decoded) body = decoded;
  } else if (/event-stream/.test(headers['content-type'] ?? '')) {
    complete = true;
  }
  const status = Number(m[1]);
  if (status === 304 || status === 204) complete = true;
  const response: FuzzResponse = { status, headers, body: decodeBody(body, headers['content-encoding']) };
  if (/event-stream/.test(headers['content-type'] ?? '')) response.streaming = true;
  return { response, complete };
}

function dechunk(data: Buffer): Buffer | null {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', i);
    if (eol < 0) return null;
    const size = parseInt(data.subarray(i, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) return null;
    if (size === 0) return Buffer.concat(out);
    if (data.length < eol + 2 + size + 2) return null;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
}
