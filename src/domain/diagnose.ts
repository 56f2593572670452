import { NOT_MONITORED } from './monitoring.ts';

// "Is it us or them" (docs/diagnose.md): which vendor an error message, hostname or URL points
// at, and a verdict from what that vendor reports now. Pure: the caller brings the catalog's
// hosts and the vendor's open records.

/** Longest input read; the rest is ignored (an error message, a URL, a stack line). */
export const MAX_DIAGNOSE_INPUT = 2000;

/** A vendor's hosts as the catalog lists them (docs/diagnose.md "Hosts"). */
export interface VendorHosts {
  slug: string;
  name: string;
  /** Hosts the vendor documents for its API, CDN and console (the catalog's `hostnames`). */
  listed: string[];
  /** Derived: the website's host without `www.`, and the status page's host. */
  derived: string[];
}

/** `service`: the input names one of the caller's own services, and the vendor is one it depends on. */
export type MatchStrength = 'listed' | 'derived' | 'service';

export interface HostMatch {
  host: string;
  vendor: string;
  name: string;
  /** The catalog host that matched (equal, or a parent domain of `host`). */
  matched: string;
  strength: MatchStrength;
}

export type ErrorKind = 'dns' | 'connection' | 'timeout' | 'tls' | 'server_error' | 'rate_limited' | 'client_error';

export interface ErrorHint {
  kind: ErrorKind;
  /** What in the input said so: `ECONNRESET`, `502`, `certificate has expired` ... */
  token: string;
}

// A DNS name with at least one dot and a letter-only top-level label; labels of 1..63
// characters. Anchored on characters that cannot be part of a name so that `foo@bar.com`
// reads as `bar.com` and `api.stripe.com:443` as `api.stripe.com`.
const HOST = /(?<![a-z0-9-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?![a-z0-9-])/g;
// File names and code that look like hosts: `index.js`, `package.json`, `app.ts`.
const NOT_A_TLD = new Set([
  'js',
  'ts',
  'mjs',
  'cjs',
  'json',
  'yaml',
  'yml',
  'txt',
  'log',
  'md',
  'html',
  'css',
  'py',
  'rb',
  'go',
  'java',
  'php',
  'sh',
  'exe',
  'dll',
  'zip',
  'gz',
  'png',
  'jpg',
  'svg',
]);

/** A host as the catalog may list it: a lower-case DNS name with a dot, nothing else. */
export const isCatalogHost = (h: string): boolean => h.length <= 253 && new RegExp(`^${HOST.source}$`).test(h);

/** Host names in free text, lower-cased, each once, in order of appearance. */
export function hostsIn(input: string): string[] {
  const text = input.slice(0, MAX_DIAGNOSE_INPUT).toLowerCase();
  const out: string[] = [];
  for (const m of text.matchAll(HOST)) {
    const host = m[1]!;
    if (host.length > 253) continue;
    const tld = host.slice(host.lastIndexOf('.') + 1);
    if (NOT_A_TLD.has(tld)) continue;
    if (!out.includes(host)) out.push(host);
  }
  return out;
}

const HINTS: [RegExp, ErrorKind][] = [
  [/\b(ENOTFOUND|EAI_AGAIN|NXDOMAIN|SERVFAIL|getaddrinfo)\b/i, 'dns'],
  [/\b(ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|timed? ?out|deadline exceeded)\b/i, 'timeout'],
  [/\b(ECONNRESET|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EPIPE|socket hang up|connection (?:reset|refused|closed))\b/i, 'connection'],
  [
    /\b(CERT_[A-Z_]+|UNABLE_TO_VERIFY_LEAF_SIGNATURE|DEPTH_ZERO_SELF_SIGNED_CERT|ERR_TLS_[A-Z_]+|certificate has expired|handshake failure|SSL routines)\b/i,
    'tls',
  ],
  [/\b(429|too many requests|rate[- ]limit(?:ed)?|throttl(?:ed|ing))\b/i, 'rate_limited'],
  [/\b(50[0-4]|bad gateway|service unavailable|gateway time-?out|internal server error)\b/i, 'server_error'],
  [/\b(40[0-4]|unauthori[sz]ed|forbidden)\b/i, 'client_error'],
];

/** The kinds of failure the text names, in a fixed order (the first is the most telling). */
export function errorHintsIn(input: string): ErrorHint[] {
  const text = input.slice(0, MAX_DIAGNOSE_INPUT);
  const out: ErrorHint[] = [];
  for (const [re, kind] of HINTS) {
    const m = re.exec(text);
    if (m) out.push({ kind, token: m[1]! });
  }
  return out;
}

/** The host of a web address, without `www.`; null when it is not one. */
export function siteHost(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host.startsWith('www.') ? host.slice(4) : host;
  } catch {
    return null;
  }
}

export interface HostIndex {
  /** Catalog host → vendors listing it (a derived host can be shared: two products on one website). */
  byHost: Map<string, { vendor: string; name: string; strength: MatchStrength }[]>;
}

export function hostIndex(vendors: VendorHosts[]): HostIndex {
  const byHost: HostIndex['byHost'] = new Map();
  const add = (host: string, v: VendorHosts, strength: MatchStrength) => {
    const list = byHost.get(host) ?? [];
    const same = list.find((e) => e.vendor === v.slug);
    if (same) {
      if (strength === 'listed') same.strength = 'listed';
      return;
    }
    list.push({ vendor: v.slug, name: v.name, strength });
    byHost.set(host, list);
  };
  for (const v of vendors) {
    for (const h of v.listed) add(h, v, 'listed');
    for (const h of v.derived) add(h, v, 'derived');
  }
  return { byHost };
}

/**
 * Vendors a host belongs to: the longest catalog host equal to it or a parent of it wins
 * (`s3.us-east-1.amazonaws.com` → `amazonaws.com`); a listed host beats a derived one on
 * the same name. Several vendors only when they share that host.
 */
export function vendorsOfHost(index: HostIndex, host: string): HostMatch[] {
  const labels = host.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join('.');
    const found = index.byHost.get(candidate);
    if (!found) continue;
    const listed = found.filter((f) => f.strength === 'listed');
    return (listed.length ? listed : found).map((f) => ({ host, vendor: f.vendor, name: f.name, matched: candidate, strength: f.strength }));
  }
  return [];
}

export type Verdict = 'vendor_incident' | 'early_warning' | 'vendor_maintenance' | 'vendor_reports_no_problem' | 'several_vendors' | 'no_vendor_matches';
export type Confidence = 'high' | 'medium' | 'low';

export interface VendorReport {
  vendor: string;
  /** Open incidents (title, impact, components named). */
  incidents: { id: string; title: string; impact: string; components: string[] }[];
  /** Maintenance in progress now. */
  maintenance: { id: string; title: string; components: string[] }[];
  /** Whether the vendor's status is known at all (a source read successfully). */
  observed: boolean;
  /** False for a catalog vendor without a machine-readable status source (docs/diagnose.md "Verdict"). */
  monitored?: boolean;
  /** The caller's organisation's open early-warning signals about the vendor; absent when not read (not a member). */
  signals?: { id: string; state: 'suspected' | 'confirmed'; confidence: number; openedAt: string }[];
}

const suspected = (r: VendorReport) => (r.signals ?? []).filter((s) => s.state === 'suspected');

function earlyWarningVerdict(report: VendorReport, name: string): VerdictResult {
  const s = suspected(report)[0]!;
  return {
    verdict: 'early_warning',
    confidence: 'medium',
    summary: `Your early warning suspects ${name} since ${s.openedAt} (confidence ${Math.round(s.confidence * 100)} %); its status page reports no incident yet.`,
  };
}

/**
 * The caller's services an input names (docs/diagnose.md "Our services"): a service's name as
 * a whole word of the input, case-insensitive (`checkout-api` in "checkout-api returns 502").
 */
export function servicesNamedIn(input: string, names: readonly string[]): string[] {
  const text = input.toLowerCase();
  const word = (c: string | undefined) => c !== undefined && /[a-z0-9_-]/.test(c);
  return names.filter((n) => {
    const needle = n.toLowerCase();
    if (!needle) return false;
    for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      if (!word(text[i - 1]) && !word(text[i + needle.length])) return true;
    }
    return false;
  });
}

export interface VerdictResult {
  verdict: Verdict;
  confidence: Confidence;
  summary: string;
}

/**
 * The verdict (docs/diagnose.md "Verdict"): an open incident of the one matched vendor is
 * "them" (high when the input names a server-side failure or the incident names a component,
 * medium otherwise); maintenance in progress is "them" at medium; a vendor reporting nothing is
 * not proof of "us" (vendor pages lag outages), so that verdict is at most medium, and low when
 * the vendor's page has not been read; no vendor is "no vendor matches".
 */
export function verdictOf(matches: HostMatch[], reports: VendorReport[], hints: ErrorHint[]): VerdictResult {
  const vendors = [...new Set(matches.map((m) => m.vendor))];
  if (!vendors.length) return { verdict: 'no_vendor_matches', confidence: 'high', summary: 'No vendor in the catalog matches this input.' };
  if (vendors.length > 1) {
    const open = reports.filter((r) => r.incidents.length);
    if (open.length === 1) return incidentVerdict(open[0]!, hints, matches);
    const warned = reports.filter((r) => !r.incidents.length && suspected(r).length);
    if (!open.length && warned.length === 1)
      return earlyWarningVerdict(warned[0]!, matches.find((m) => m.vendor === warned[0]!.vendor)?.name ?? warned[0]!.vendor);
    return { verdict: 'several_vendors', confidence: 'low', summary: `The input matches ${vendors.length} vendors: ${vendors.join(', ')}.` };
  }
  const report = reports.find((r) => r.vendor === vendors[0]);
  const name = matches[0]!.name;
  if (report?.incidents.length) return incidentVerdict(report, hints, matches);
  // Our own early warning comes before what the page says: pages lag outages (docs/early-warning.md).
  if (report && suspected(report).length) return earlyWarningVerdict(report, name);
  if (report?.maintenance.length) {
    return { verdict: 'vendor_maintenance', confidence: 'medium', summary: `${name} has maintenance in progress: ${report.maintenance[0]!.title}.` };
  }
  if (report && report.monitored === false) {
    return { verdict: 'vendor_reports_no_problem', confidence: 'low', summary: `${name} is ${NOT_MONITORED}, so nothing is known of its state.` };
  }
  if (!report?.observed) {
    return { verdict: 'vendor_reports_no_problem', confidence: 'low', summary: `${name}'s status page has not been read, so nothing is known of its state.` };
  }
  const serverSide = hints.some((h) => h.kind === 'server_error' || h.kind === 'timeout' || h.kind === 'connection');
  return {
    verdict: 'vendor_reports_no_problem',
    confidence: serverSide ? 'low' : 'medium',
    summary: `${name} reports no open incident. Vendor pages lag outages, so a failure on their side is not ruled out${serverSide ? ', and the error names a failure on the server side' : ''}.`,
  };
}

function incidentVerdict(report: VendorReport, hints: ErrorHint[], matches: HostMatch[]): VerdictResult {
  const first = report.incidents[0]!;
  const name = matches.find((m) => m.vendor === report.vendor)?.name ?? report.vendor;
  const strong = first.components.length > 0 || hints.some((h) => h.kind !== 'client_error');
  return {
    verdict: 'vendor_incident',
    confidence: strong ? 'high' : 'medium',
    summary: `${name} reports an open incident: ${first.title}${first.components.length ? ` (${first.components.join(', ')})` : ''}.`,
  };
}
