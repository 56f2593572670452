import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import { request, type Agent } from 'undici';
import { bareHost, isAllowListed, isNonPublicAddress } from '../domain/outbound-url.ts';
import type { Credential } from '../domain/private-probes.ts';
import type { ProbeSample, ProbeSpec } from '../domain/probes.ts';
import { assertAllowedUrl, BlockedDestinationError, guardedLookup } from '../infra/ssrf-guard.ts';

// One measurement of one probe (docs/early-warning.md "Probes"), through the outbound guard:
// names are resolved by the guard's lookup, which refuses private, loopback and link-local
// answers unless OUTBOUND_ALLOW_PRIVATE lists the host or address. Every check has a
// deadline; an HTTP answer's body is read to at most BODY_LIMIT bytes, then dropped, and
// redirects are never followed (the status is compared with the probe's `expect`), so a
// private probe's credential header reaches only the origin of its URL, never a redirect's.

export const BODY_LIMIT = 64 * 1024;

export interface CheckOptions {
  agent: Agent;
  allowList: readonly string[];
  timeoutMs: number;
  /** The clock's time (the sample's timestamp); latency is measured on the monotonic clock. */
  now: () => number;
  /** Extra trusted CA certificates for tls probes (tests: a self-signed endpoint). */
  ca?: string | Buffer;
}

const reasonOf = (err: unknown): string => {
  if (err instanceof BlockedDestinationError) return 'refused: not a public address';
  const e = err as { code?: string; name?: string; message?: string; cause?: unknown };
  if (e?.cause && e.cause !== err) {
    const inner = reasonOf(e.cause);
    if (inner !== 'failed') return inner;
  }
  if (e?.code === 'ERR_BLOCKED_DESTINATION') return 'refused: not a public address';
  if (
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_CONNECT_TIMEOUT' ||
    e?.code === 'ETIMEDOUT'
  )
    return 'timeout';
  if (typeof e?.code === 'string') return e.code.slice(0, 60);
  return 'failed';
};

const deadline = <T>(p: Promise<T>, ms: number, onTimeout: () => void): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => {
      onTimeout();
      reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
    }, ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });

async function http(
  spec: Extract<ProbeSpec, { kind: 'http' }>,
  o: CheckOptions,
  credential: Credential | null,
): Promise<{ ok: boolean; reason: string | null }> {
  const url = new URL(spec.url);
  assertAllowedUrl(url, o.allowList);
  const signal = AbortSignal.timeout(o.timeoutMs);
  const headers: Record<string, string> = { 'user-agent': 'vendor-status-probe/1', accept: '*/*' };
  if (credential) headers[credential.name.toLowerCase()] = credential.value;
  const res = await request(url, { method: 'GET', dispatcher: o.agent, signal, headers });
  let read = 0;
  try {
    for await (const chunk of res.body) {
      read += (chunk as Buffer).length;
      if (read >= BODY_LIMIT) break;
    }
  } finally {
    res.body.destroy();
  }
  const ok = spec.expect.includes(res.statusCode);
  return { ok, reason: ok ? null : `status ${res.statusCode}` };
}

function connect(hostPort: string, o: CheckOptions, secure: boolean): Promise<{ ok: boolean; reason: string | null }> {
  const i = hostPort.lastIndexOf(':');
  const host = bareHost(hostPort.slice(0, i));
  const port = Number(hostPort.slice(i + 1));
  if (net.isIP(host) && isNonPublicAddress(host) && !isAllowListed(host, o.allowList)) return Promise.reject(new BlockedDestinationError());
  return new Promise((resolve, reject) => {
    const lookup = guardedLookup(o.allowList);
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, lookup, ca: o.ca ? [...tls.rootCertificates, o.ca.toString()] : undefined })
      : net.connect({ host, port, lookup });
    const done = (err: Error | null) => {
      clearTimeout(t);
      socket.destroy();
      if (err) reject(err);
      else resolve({ ok: true, reason: null });
    };
    const t = setTimeout(() => done(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), o.timeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => done(null));
    socket.once('error', (err) => done(err));
  });
}

async function resolve(name: string, o: CheckOptions): Promise<{ ok: boolean; reason: string | null }> {
  let cancelled = false;
  const all = await deadline(dns.promises.lookup(name, { all: true, verbatim: true }), o.timeoutMs, () => (cancelled = true));
  if (cancelled) throw Object.assign(new Error('timeout'), { name: 'TimeoutError' });
  if (all.some((a) => isNonPublicAddress(a.address) && !isAllowListed(name, o.allowList) && !isAllowListed(a.address, o.allowList)))
    throw new BlockedDestinationError();
  return { ok: all.length > 0, reason: all.length ? null : 'no address' };
}

/**
 * Measures one probe once; never throws: a failure is a failed sample with its reason. The
 * credential (a private probe's one header) goes only with an http check.
 */
export async function runCheck(spec: ProbeSpec, o: CheckOptions, credential: Credential | null = null): Promise<ProbeSample> {
  const at = new Date(o.now()).toISOString();
  const started = performance.now();
  try {
    const r =
      spec.kind === 'http'
        ? await http(spec, o, credential)
        : spec.kind === 'dns'
          ? await resolve(spec.name, o)
          : await connect(spec.host, o, spec.kind === 'tls');
    return { at, ok: r.ok, latencyMs: Math.max(0, Math.round(performance.now() - started)), reason: r.reason };
  } catch (err) {
    return { at, ok: false, latencyMs: null, reason: reasonOf(err) };
  }
}
