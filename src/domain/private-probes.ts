import { bareHost, isAllowListed, MAX_URL_LENGTH, webhookUrlProblem } from './outbound-url.ts';
import { hostCoveredBy, type ProbeSample } from './probes.ts';

// Private probes of an organisation (docs/early-warning.md "Private probes"): a team's own
// check of a vendor, optionally with one credential header (e.g. an authenticated `GET`
// against the vendor's API). Pure: the caps, which header names may carry a credential, what
// a target may be, and the "credential rejected" state that is not the vendor failing.

/** Private probes one organisation may have. */
export const MAX_PRIVATE_PROBES = 50;
/** Interval bounds (seconds): the floor keeps one team from spending the shared probe budget. */
export const MIN_PRIVATE_INTERVAL_SECONDS = 30;
export const MAX_PRIVATE_INTERVAL_SECONDS = 300;
export const DEFAULT_PRIVATE_INTERVAL_SECONDS = 60;
export const MAX_HEADER_NAME_LENGTH = 64;
export const MAX_HEADER_VALUE_LENGTH = 4096;
export const MAX_TARGET_LENGTH = MAX_URL_LENGTH;
export const MAX_EXPECT = 10;

export type PrivateProbeKind = 'http' | 'tcp' | 'tls';
export const PRIVATE_PROBE_KINDS: readonly PrivateProbeKind[] = ['http', 'tcp', 'tls'];

export interface Credential {
  name: string;
  value: string;
}

export interface PrivateProbeInput {
  vendor: string;
  kind: PrivateProbeKind;
  /** `http`: the URL; `tcp`/`tls`: `host:port`. */
  target: string;
  expect?: number[];
  intervalSeconds?: number;
  credential?: Credential | null;
}

export interface Problem {
  field: string;
  why: string;
}

/** Header names that may carry a credential: `authorization` and vendor key headers. */
const ALLOWED_EXACT = new Set(['authorization', 'api-key', 'apikey', 'private-token']);
/**
 * Never a credential header: the request's own framing and routing (Host, hop-by-hop,
 * lengths, encodings), cookies, and the forwarding headers a proxy or vendor may trust.
 */
const REFUSED = new Set([
  'host',
  'cookie',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'content-type',
  'expect',
  'x-real-ip',
  'x-http-method-override',
]);
const TOKEN = /^[a-z0-9][a-z0-9-]*$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A header value: visible ASCII and inner spaces (RFC 9110 field-value, no obs-text). */
const VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Why a header name may not carry a credential, or null. Names compare without case. */
export function headerNameProblem(raw: string): string | null {
  if (CONTROL.test(raw)) return 'must not contain control characters';
  const name = raw.toLowerCase();
  if (!name || name.length > MAX_HEADER_NAME_LENGTH || !TOKEN.test(name))
    return `must be a header name (letters, digits and '-', at most ${MAX_HEADER_NAME_LENGTH})`;
  if (REFUSED.has(name) || name.startsWith('x-forwarded-') || name.startsWith('proxy-') || name.startsWith('sec-')) return `'${name}' may not be set`;
  if (!ALLOWED_EXACT.has(name) && !name.startsWith('x-')) return 'must be authorization, api-key, apikey, private-token or an x- header';
  return null;
}

/** Why a header value is refused, or null: CR, LF, NUL and other controls never pass. */
export function headerValueProblem(value: string): string | null {
  if (CONTROL.test(value)) return 'must not contain CR, LF, NUL or other control characters';
  if (value.length > MAX_HEADER_VALUE_LENGTH) return `must be at most ${MAX_HEADER_VALUE_LENGTH} characters`;
  if (!VALUE.test(value)) return 'must be printable ASCII without leading or trailing spaces';
  return null;
}

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The host a target reaches, or the reason it is refused. */
function targetHost(kind: PrivateProbeKind, target: string, allowList: readonly string[]): { host: string } | { why: string } {
  if (CONTROL.test(target)) return { why: 'must not contain control characters' };
  if (target.length > MAX_TARGET_LENGTH) return { why: `must be at most ${MAX_TARGET_LENGTH} characters` };
  if (kind === 'http') {
    const why = webhookUrlProblem(target, allowList);
    if (why) return { why };
    const u = new URL(target);
    if (u.hash) return { why: 'must carry no fragment' };
    return { host: bareHost(u.hostname) };
  }
  const m = /^(.+):(\d{1,5})$/.exec(target);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) return { why: 'must be host:port' };
  const host = bareHost(m[1]!);
  if (!isAllowListed(host, allowList) && !DNS_NAME.test(host))
    return { why: `'${host}' must be a lower-case DNS name (an address only when the operator allows it)` };
  return { host };
}

/**
 * What is wrong with a private probe (the schema checked types and sizes). A target must be
 * under the vendor's documented hostnames when the catalog lists them, unless the operator
 * allow-listed the host (OUTBOUND_ALLOW_PRIVATE): a team's credential goes only to its vendor.
 */
export function privateProbeProblems(p: Partial<PrivateProbeInput>, o: { allowList: readonly string[]; hostnames: readonly string[] }): Problem[] {
  const out: Problem[] = [];
  const kind = p.kind ?? 'http';
  if (p.target !== undefined) {
    const t = targetHost(kind, p.target, o.allowList);
    if ('why' in t) out.push({ field: 'target', why: t.why });
    else if (o.hostnames.length && !hostCoveredBy(t.host, o.hostnames) && !isAllowListed(t.host, o.allowList)) {
      out.push({ field: 'target', why: `'${t.host}' is not under the vendor's hostnames (${o.hostnames.join(', ')})` });
    }
  }
  if (p.expect !== undefined && kind !== 'http') out.push({ field: 'expect', why: 'only http probes compare a status' });
  if (p.expect?.some((s) => !Number.isInteger(s) || s < 100 || s > 599)) out.push({ field: 'expect', why: 'must list HTTP statuses (100..599)' });
  if (
    p.intervalSeconds !== undefined &&
    (!Number.isInteger(p.intervalSeconds) || p.intervalSeconds < MIN_PRIVATE_INTERVAL_SECONDS || p.intervalSeconds > MAX_PRIVATE_INTERVAL_SECONDS)
  ) {
    out.push({ field: 'intervalSeconds', why: `must be ${MIN_PRIVATE_INTERVAL_SECONDS}..${MAX_PRIVATE_INTERVAL_SECONDS}` });
  }
  if (p.credential) {
    if (kind !== 'http') out.push({ field: 'credential', why: 'only http probes send a credential' });
    const n = headerNameProblem(p.credential.name);
    if (n) out.push({ field: 'credential.name', why: n });
    const v = headerValueProblem(p.credential.value);
    if (v) out.push({ field: 'credential.value', why: v });
  }
  return out;
}

/** The reason of a sample not taken: the credential is sealed with a secrets key this instance lacks. */
export const CREDENTIAL_UNREADABLE = 'credential unreadable (secrets key changed; save the credential again)';

/**
 * The vendor refused the request as unauthorised (401) or forbidden (403), or the credential
 * could not be opened: the key, not the vendor.
 */
export const isCredentialRejection = (s: ProbeSample): boolean =>
  !s.ok && (s.reason === 'status 401' || s.reason === 'status 403' || s.reason === CREDENTIAL_UNREADABLE);

/**
 * A private probe's state: `credential_rejected` while its newest sample was refused for its
 * credential (shown apart from the vendor failing), else as a catalog probe's.
 */
export function privateProbeState(samples: readonly ProbeSample[], anomalous: boolean): 'unknown' | 'ok' | 'anomalous' | 'credential_rejected' {
  const last = samples[samples.length - 1];
  if (!last) return 'unknown';
  if (isCredentialRejection(last)) return 'credential_rejected';
  return anomalous ? 'anomalous' : 'ok';
}

/**
 * The samples the vendor anomaly rule reads for a private probe: refusals of the credential
 * say nothing about the vendor's health, so they neither fail nor pass the vendor.
 */
export const vendorSamples = (samples: readonly ProbeSample[]): ProbeSample[] => samples.filter((s) => !isCredentialRejection(s));

/** The last four characters of a credential, the only part ever shown; none of a short one (four would be too much of it). */
export const lastFour = (value: string): string => (value.length >= 12 ? value.slice(-4) : '');
