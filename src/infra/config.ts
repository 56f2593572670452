import { isIP } from 'node:net';
import path from 'node:path';
import { isPlan, isUserPlan, type Plan, type PlanPolicy, PLANS, type UserPlan } from '../domain/plans.ts';

// Configuration is read once from the environment and validated at start-up;
// a bad value stops the process with a message naming the variable.

export type Role = 'api' | 'ingest' | 'deliver';
export const ROLES: readonly Role[] = ['api', 'ingest', 'deliver'];

export type TrustProxy = false | number | string[];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; absent = embedded SQLite under dataDir. */
  databaseUrl: string | null;
  /** Schema used on PostgreSQL (tests isolate themselves with their own). */
  databaseSchema: string | null;
  /** Longest wait for one PostgreSQL statement's answer; past it the connection is dropped (DATABASE_QUERY_TIMEOUT_MS). */
  databaseQueryTimeoutMs: number;
  redisUrl: string | null;
  /** Prefix for every Redis key, so instances of different deployments/tests do not collide. */
  redisPrefix: string;
  requireApiKey: boolean;
  webOrigins: string[];
  apiKeyMinPlan: Plan;
  /** The plan a new organisation (and a signup's personal one) gets (NEW_ORG_PLAN, docs/teams.md "Operator"). */
  newOrgPlan: UserPlan;
  /** The plan anonymous callers are served on (ANONYMOUS_PLAN; default the contract's `anonymous`). */
  anonymousPlan: Plan;
  /** Days an audit entry is kept before `cli audit prune` removes it; 0 = forever (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** Lowest plan allowed to add status pages by URL (CUSTOM_SOURCES_MIN_PLAN, docs/per-user.md). */
  customSourcesMinPlan: Plan;
  /** Deadline of one detection probe of a user-added page (CUSTOM_SOURCES_PROBE_TIMEOUT_MS). */
  customSourcesProbeTimeoutMs: number;
  /**
   * Which peers may set X-Forwarded-For/-Proto/-Host (TRUST_PROXY): false = none, a
   * number = that many proxy hops in front, a list = those addresses/CIDRs. Never
   * "every hop" (docs/security.md, "Client address behind proxies").
   */
  trustProxy: TrustProxy;
  /** Prefix length an IPv6 client is counted by in per-address limits (IPV6_CLIENT_PREFIX; docs/security.md, "IPv6 clients"). */
  ipv6ClientPrefix: number;
  /** Anonymous event streams open at once in this process, all addresses together (ANONYMOUS_STREAMS_PER_SERVER). */
  anonymousStreamsPerServer: number;
  ingest: 'live' | 'off';
  outboundAllowPrivate: string[];
  demo: boolean;
  rateLimits: Partial<Record<Plan, Partial<Pick<PlanPolicy, 'perMinute' | 'perDay'>>>>;
  logLevel: string;
  /** `auto`: human-readable on a terminal, JSON otherwise; `json` or `pretty` force one (docs/operations.md). */
  logFormat: 'auto' | 'json' | 'pretty';
  roles: Role[];
  /** Also serve MCP on this port (0 = any free port); null = only on the main port. */
  mcpPort: number | null;
  /**
   * Origin under which clients reach this service (OAuth issuer, MCP resource URLs);
   * null = derived from each request (Host / X-Forwarded-* when TRUST_PROXY is on).
   */
  publicUrl: string | null;
  streamPingSeconds: number;
  /** How often quiet early-warning signals are cleared and new incidents confirm signals (docs/early-warning.md). */
  earlyWarningSweepSeconds: number;
  /**
   * Days a closed early-warning signal and its evidence are kept (SIGNAL_RETENTION_DAYS; at
   * least 90, the span of the lead-time figures; docs/early-warning.md "Retention").
   */
  signalRetentionDays: number;
  /** Probes of vendors' public endpoints (PROBES; default on with live ingestion). */
  probes: boolean;
  /** Mean interval between two runs of one probe, jittered by a third either way (PROBE_INTERVAL_SECONDS). */
  probeIntervalSeconds: number;
  /** Probes in flight at once in this process, and per host (PROBE_CONCURRENCY, PROBE_HOST_CONCURRENCY). */
  probeConcurrency: number;
  probeHostConcurrency: number;
  /** Deadline of one probe: resolve, connect, answer (PROBE_TIMEOUT_MS). */
  probeTimeoutMs: number;
  /** Scan broken catalog sources for a platform move (SOURCE_REPAIR; default on with live ingestion), every SOURCE_REPAIR_INTERVAL_SECONDS. */
  sourceRepair: boolean;
  sourceRepairIntervalSeconds: number;
  /** How often each Prometheus connector is evaluated, and the deadline of one query (TELEMETRY_INTERVAL_SECONDS, TELEMETRY_TIMEOUT_MS). */
  telemetryIntervalSeconds: number;
  /** Evaluate Prometheus connectors on this instance (TELEMETRY; default on with live ingestion). */
  telemetry: boolean;
  telemetryTimeoutMs: number;
  eventRetentionDays: number;
  /** Bytes an event-stream client may leave unread before it is dropped (STREAM_BUFFER_KB). */
  streamBufferBytes: number;
  pollIntervalSeconds: number;
  /** log2 of scrypt's N for new password hashes (PASSWORD_HASH_COST). */
  passwordHashCost: number;
  /** Seconds a verified API key or session is remembered in-process (0 = always ask the database). */
  authCacheSeconds: number;
  /** Requests a minute each SCIM token may make (docs/teams.md, "SCIM"). */
  scimRequestsPerMinute: number;
  /** Polls in flight at once, all hosts together. */
  ingestConcurrency: number;
  /** Polls in flight at once against one host. */
  ingestHostConcurrency: number;
  /** Deadline of one poll (connect, headers and body). */
  ingestTimeoutMs: number;
  /** Largest payload read from a source (after decompression). */
  ingestMaxBytes: number;
  /** Run the polling schedule in a worker thread, off the API's event loop. */
  ingestWorker: boolean;
  /** Steps of nice the ingestion worker thread runs below the process on Linux (0 = none; docs/ingestion.md "The API thread first"). */
  ingestWorkerNice: number;
  /**
   * Lease of one source poll (INGEST_LEASE_SECONDS): how long a poller that died
   * mid-poll keeps other instances off the source. Longer than a poll's deadline.
   */
  ingestLeaseSeconds: number;
  /** Bound on a graceful shutdown (SHUTDOWN_TIMEOUT_SECONDS); past it the process exits 1. */
  shutdownTimeoutSeconds: number;
  /** Vendor catalog file; null = catalog/vendors.json of the project. */
  catalogFile: string | null;
  /** Demo mode: seconds between two steps of the simulated fleet. */
  demoStepSeconds: number;
  /** Demo mode: seed of the simulated fleet (null = a new fleet every start). */
  demoSeed: number | null;
  /** Run the alert dispatcher and delivery workers (with the 'deliver' role; DELIVER). */
  deliver: boolean;
  /** Deliveries in flight at once in this process (DELIVERY_CONCURRENCY). */
  deliveryConcurrency: number;
  /** Deadline of one delivery attempt: connect, send, answer (DELIVERY_TIMEOUT_MS). */
  deliveryTimeoutMs: number;
  /** Sends in flight at once to one receiver (webhook, Teams or Google Chat host, or PagerDuty / Opsgenie / Slack / SMTP) in this process (DELIVERY_HOST_CONCURRENCY). */
  deliveryHostConcurrency: number;
  /** Alerts per user and push channel per flood window; beyond it one summary (ALERT_FLOOD_LIMIT). */
  alertFloodLimit: number;
  /** Length of the flood window (ALERT_FLOOD_WINDOW_SECONDS). */
  alertFloodWindowSeconds: number;
  /** SMTP server for e-mail alerts (smtp:// or smtps://); null = e-mail channel off. */
  smtpUrl: string | null;
  /** From address of alert e-mails. */
  emailFrom: string;
  /** Slack bot token (xoxb-…) used to DM users; null = Slack channel off. */
  slackBotToken: string | null;
  /** Slack Web API base URL (tests point it at a local fake). */
  slackApiUrl: string;
  /** PagerDuty Events API v2 enqueue URL (tests point it at a local fake). */
  pagerdutyEventsUrl: string;
  /** Key channel secrets are encrypted with at rest (SECRETS_KEY, 64 hex); null = a key generated into DATA_DIR. */
  secretsKey: string | null;
  /** Keys of earlier rotations, still accepted for reading (SECRETS_KEY_PREVIOUS, comma-separated). */
  secretsKeyPrevious: string[];
  /** Slack app credentials for the "Add to Slack" install (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET); null = install off. */
  slackClientId: string | null;
  slackClientSecret: string | null;
  /** Slack authorize page base (SLACK_OAUTH_URL; tests point it at a local fake). */
  slackOAuthUrl: string;
  /** Opsgenie API base (OPSGENIE_API_URL); null = by the user's region (api.opsgenie.com / api.eu.opsgenie.com). */
  opsgenieApiUrl: string | null;
  /** Jira Service Management Operations API base (JSM_API_URL); null = https://api.atlassian.com. */
  jsmApiUrl: string | null;
  /** Datadog events intake (DATADOG_EVENTS_URL); null = https://event-management-intake.<route's site>/api/v2/events. */
  datadogEventsUrl: string | null;
  /** Telegram Bot API base (TELEGRAM_API_URL). */
  telegramApiUrl: string;
  /** Rootly API base (ROOTLY_API_URL); null = https://api.rootly.com. */
  rootlyApiUrl: string | null;
  /** Atlassian Statuspage REST API base (STATUSPAGE_API_URL); null = https://api.statuspage.io. */
  statuspageApiUrl: string | null;
  /** Instatus API base (INSTATUS_API_URL); null = https://api.instatus.com. */
  instatusApiUrl: string | null;
  /** Bearer token GET /metrics requires (METRICS_TOKEN); null = the endpoint is open. */
  metricsToken: string | null;
  /** Expose vis_component_status on /metrics (METRICS_COMPONENT_SERIES); off by default for its cardinality. */
  metricsComponentSeries: boolean;
  /**
   * Origins whose pages may read public GET routes (CORS_ORIGINS): a list of origins,
   * `*` for any, or empty = no CORS headers at all (docs/integrations.md).
   */
  corsOrigins: '*' | string[];
}

export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new ConfigError(name, `expected true or false, got '${v}'`);
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function proxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [addr, prefix, extra] = entry.split('/');
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false` (default) = no proxy, the socket address is the client; an
 * integer = hops of proxies in front (the client is that many entries from the right
 * of X-Forwarded-For, so entries a client writes itself further left are ignored);
 * a comma-separated list of proxy addresses/CIDRs (or loopback, linklocal,
 * uniquelocal). `true` means one hop: trusting every hop would let any client pick
 * its address, and with it a fresh anonymous quota.
 */
function trustProxy(env: Env): TrustProxy {
  const v = (env.TRUST_PROXY ?? '').trim();
  if (v === '' || /^(0|false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on)$/i.test(v)) return 1;
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (n < 1 || n > 10) throw new ConfigError('TRUST_PROXY', `a hop count must be between 1 and 10, got ${n}`);
    return n;
  }
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !proxyAddress(e));
  if (bad !== undefined) {
    throw new ConfigError('TRUST_PROXY', `expected false, a hop count (1..10) or a comma-separated list of proxy addresses/CIDRs; '${bad}' is none of these`);
  }
  return entries;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `expected an integer, got '${v}'`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const v = env[name];
  if (v === undefined || v === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  }
  return v;
}

function rateLimits(env: Env): Config['rateLimits'] {
  const raw = env.RATE_LIMITS;
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('RATE_LIMITS', 'is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('RATE_LIMITS', 'must be a JSON object keyed by plan');
  }
  const out: Config['rateLimits'] = {};
  for (const [plan, figures] of Object.entries(parsed)) {
    if (!isPlan(plan)) throw new ConfigError('RATE_LIMITS', `unknown plan '${plan}' (plans: ${PLANS.join(', ')})`);
    if (typeof figures !== 'object' || figures === null) throw new ConfigError('RATE_LIMITS', `'${plan}' must be an object`);
    const entry: Partial<Pick<PlanPolicy, 'perMinute' | 'perDay' | 'concurrentStreams'>> = {};
    for (const [k, v] of Object.entries(figures)) {
      if (k !== 'perMinute' && k !== 'perDay' && k !== 'concurrentStreams') throw new ConfigError('RATE_LIMITS', `unknown field '${plan}.${k}'`);
      if (!Number.isInteger(v) || (v as number) < 1) throw new ConfigError('RATE_LIMITS', `'${plan}.${k}' must be a positive integer`);
      entry[k] = v as number;
    }
    out[plan] = entry;
  }
  return out;
}

function emailFrom(env: Env): string {
  const v = env.EMAIL_FROM || 'Vendor Status Alerts <alerts@localhost>';
  // A bare address or `Name <address>`; no line breaks (header injection).
  if (/[\r\n]/.test(v) || !/^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(v.trim())) {
    throw new ConfigError('EMAIL_FROM', "must be an address or 'Name <address>'");
  }
  return v.trim();
}

function slackToken(env: Env): string | null {
  const v = env.SLACK_BOT_TOKEN;
  if (v === undefined || v === '') return null;
  if (!/^xox[a-z]-[A-Za-z0-9-]+$/.test(v)) throw new ConfigError('SLACK_BOT_TOKEN', 'must be a Slack bot token (xoxb-…)');
  return v;
}

function secretsKeys(env: Env): { key: string | null; previous: string[] } {
  const key = env.SECRETS_KEY ? env.SECRETS_KEY.trim() : null;
  if (key !== null && !/^[0-9a-fA-F]{64}$/.test(key)) throw new ConfigError('SECRETS_KEY', 'must be 32 bytes as 64 hex characters');
  const previous = (env.SECRETS_KEY_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of previous) if (!/^[0-9a-fA-F]{64}$/.test(p)) throw new ConfigError('SECRETS_KEY_PREVIOUS', 'must be 64-hex-character keys, comma-separated');
  return { key, previous };
}

function optional(env: Env, name: string, re: RegExp, what: string): string | null {
  const v = env[name];
  if (v === undefined || v === '') return null;
  if (!re.test(v)) throw new ConfigError(name, what);
  return v;
}

function corsOrigins(env: Env): '*' | string[] {
  const items = list(env, 'CORS_ORIGINS');
  if (items.includes('*')) {
    if (items.length > 1) throw new ConfigError('CORS_ORIGINS', "'*' cannot be combined with named origins");
    return '*';
  }
  return items.map((o) => {
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      throw new ConfigError('CORS_ORIGINS', `'${o}' is not an origin URL`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new ConfigError('CORS_ORIGINS', `'${o}' is not an http(s) origin`);
    return u.origin;
  });
}

function metricsToken(env: Env): string | null {
  const v = env.METRICS_TOKEN;
  if (v === undefined || v === '') return null;
  // Sent as `Authorization: Bearer <token>`: visible ASCII without spaces, long enough not to be guessed.
  if (!/^[\x21-\x7e]{16,512}$/.test(v)) throw new ConfigError('METRICS_TOKEN', 'must be 16 to 512 visible ASCII characters without spaces');
  return v;
}

/** Role names from ROLES or the server's --role flag; `source` names where they came from. */
export function parseRoles(values: string[], source: string): Role[] {
  for (const r of values) {
    if (!ROLES.includes(r as Role)) throw new ConfigError(source, `unknown role '${r}' (roles: ${ROLES.join(', ')})`);
  }
  return [...new Set(values as Role[])];
}

const withSlash = (u: string) => (u.endsWith('/') ? u : `${u}/`);

export function loadConfig(env: Env = process.env): Config {
  const minPlan = env.API_KEY_MIN_PLAN || 'free';
  if (!isPlan(minPlan) || minPlan === 'anonymous') {
    throw new ConfigError('API_KEY_MIN_PLAN', `must be one of free, standard, pro, enterprise, vip; got '${minPlan}'`);
  }
  const customMinPlan = env.CUSTOM_SOURCES_MIN_PLAN || 'standard';
  if (!isPlan(customMinPlan) || customMinPlan === 'anonymous') {
    throw new ConfigError('CUSTOM_SOURCES_MIN_PLAN', `must be one of free, standard, pro, enterprise, vip; got '${customMinPlan}'`);
  }
  const newOrgPlan = env.NEW_ORG_PLAN || 'free';
  if (!isUserPlan(newOrgPlan)) throw new ConfigError('NEW_ORG_PLAN', `must be one of free, standard, pro, enterprise, vip; got '${newOrgPlan}'`);
  const anonymousPlan = env.ANONYMOUS_PLAN || 'anonymous';
  if (!isPlan(anonymousPlan)) throw new ConfigError('ANONYMOUS_PLAN', `must be one of anonymous, free, standard, pro, enterprise, vip; got '${anonymousPlan}'`);
  const ingest = env.INGEST || 'live';
  if (ingest !== 'live' && ingest !== 'off') throw new ConfigError('INGEST', `must be 'live' or 'off', got '${ingest}'`);
  const roles = parseRoles(list(env, 'ROLES'), 'ROLES');
  const schema = env.DATABASE_SCHEMA || null;
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError('DATABASE_SCHEMA', 'must be a lowercase SQL identifier');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `unknown level '${logLevel}'`);
  }
  const logFormat = env.LOG_FORMAT || 'auto';
  if (logFormat !== 'auto' && logFormat !== 'json' && logFormat !== 'pretty') {
    throw new ConfigError('LOG_FORMAT', `must be auto, json or pretty (got '${logFormat}')`);
  }
  const mcpPort = env.MCP_PORT ? int(env, 'MCP_PORT', 0, 0, 65535) : null;
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']);
  if (publicUrl !== null) {
    const u = new URL(publicUrl);
    if (u.pathname !== '/' || u.search || u.hash || u.username || u.password) {
      throw new ConfigError('PUBLIC_URL', 'must be an origin such as https://status.example.com (no path, query or credentials)');
    }
  }
  const demo = bool(env, 'DEMO', false);
  const ingestConcurrency = int(env, 'INGEST_CONCURRENCY', 16, 1, 512);
  const ingestTimeoutMs = int(env, 'INGEST_TIMEOUT_MS', 10_000, 100, 120_000);
  // Default: three poll deadlines plus 30 s, so a live poller never loses its lease.
  const ingestLeaseSeconds = int(env, 'INGEST_LEASE_SECONDS', Math.ceil((ingestTimeoutMs * 3) / 1000) + 30, 1, 86_400);
  if (ingestLeaseSeconds * 1000 <= ingestTimeoutMs) {
    throw new ConfigError(
      'INGEST_LEASE_SECONDS',
      `must be longer than a poll's deadline (INGEST_TIMEOUT_MS = ${ingestTimeoutMs} ms), got ${ingestLeaseSeconds}`,
    );
  }
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    // Demo data lives apart from live data unless DATA_DIR says otherwise.
    dataDir: path.resolve(env.DATA_DIR || (demo ? './data/demo' : './data')),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseSchema: schema,
    databaseQueryTimeoutMs: int(env, 'DATABASE_QUERY_TIMEOUT_MS', 30_000, 100, 3_600_000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: env.REDIS_PREFIX || 'vis:',
    requireApiKey: bool(env, 'VENDOR_API_REQUIRE_API_KEY', false),
    webOrigins: list(env, 'WEB_ORIGINS').map((o) => {
      try {
        return new URL(o).origin;
      } catch {
        throw new ConfigError('WEB_ORIGINS', `'${o}' is not an origin URL`);
      }
    }),
    apiKeyMinPlan: minPlan,
    newOrgPlan,
    anonymousPlan,
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 0, 0, 36_500),
    customSourcesMinPlan: customMinPlan,
    customSourcesProbeTimeoutMs: int(env, 'CUSTOM_SOURCES_PROBE_TIMEOUT_MS', 5_000, 100, 60_000),
    trustProxy: trustProxy(env),
    ipv6ClientPrefix: int(env, 'IPV6_CLIENT_PREFIX', 64, 16, 128),
    anonymousStreamsPerServer: int(env, 'ANONYMOUS_STREAMS_PER_SERVER', 1000, 1, 1_000_000),
    ingest,
    outboundAllowPrivate: list(env, 'OUTBOUND_ALLOW_PRIVATE'),
    demo,
    rateLimits: rateLimits(env),
    logLevel,
    logFormat,
    roles: roles.length ? roles : [...ROLES],
    mcpPort,
    publicUrl: publicUrl === null ? null : new URL(publicUrl).origin,
    streamPingSeconds: int(env, 'STREAM_PING_SECONDS', 15, 1, 3600),
    earlyWarningSweepSeconds: int(env, 'EARLY_WARNING_SWEEP_SECONDS', 60, 1, 3600),
    signalRetentionDays: int(env, 'SIGNAL_RETENTION_DAYS', 180, 90, 3650),
    probes: bool(env, 'PROBES', ingest === 'live' && !demo),
    probeIntervalSeconds: int(env, 'PROBE_INTERVAL_SECONDS', 45, 1, 3600),
    probeConcurrency: int(env, 'PROBE_CONCURRENCY', 16, 1, 256),
    probeHostConcurrency: int(env, 'PROBE_HOST_CONCURRENCY', 2, 1, 64),
    probeTimeoutMs: int(env, 'PROBE_TIMEOUT_MS', 5_000, 100, 60_000),
    sourceRepair: bool(env, 'SOURCE_REPAIR', ingest === 'live' && !demo),
    sourceRepairIntervalSeconds: int(env, 'SOURCE_REPAIR_INTERVAL_SECONDS', 3600, 60, 86_400),
    telemetryIntervalSeconds: int(env, 'TELEMETRY_INTERVAL_SECONDS', 60, 1, 3600),
    telemetry: bool(env, 'TELEMETRY', ingest === 'live' && !demo),
    telemetryTimeoutMs: int(env, 'TELEMETRY_TIMEOUT_MS', 5_000, 100, 60_000),
    eventRetentionDays: int(env, 'EVENT_RETENTION_DAYS', 7, 1, 3650),
    streamBufferBytes: int(env, 'STREAM_BUFFER_KB', 256, 16, 65536) * 1024,
    passwordHashCost: int(env, 'PASSWORD_HASH_COST', 15, 10, 20),
    authCacheSeconds: int(env, 'AUTH_CACHE_SECONDS', 5, 0, 300),
    scimRequestsPerMinute: int(env, 'SCIM_REQUESTS_PER_MINUTE', 600, 1, 1_000_000),
    // The demo fleet changes every few seconds, so demo mode polls it more often.
    pollIntervalSeconds: int(env, 'POLL_INTERVAL_SECONDS', demo ? 10 : 30, 5, 86400),
    ingestConcurrency,
    // The simulated fleet is one local host; real vendors each get a small share.
    ingestHostConcurrency: int(env, 'INGEST_HOST_CONCURRENCY', demo ? ingestConcurrency : 2, 1, 512),
    ingestTimeoutMs,
    ingestMaxBytes: int(env, 'INGEST_MAX_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    ingestWorker: bool(env, 'INGEST_WORKER', true),
    ingestWorkerNice: int(env, 'INGEST_WORKER_NICE', 10, 0, 19),
    ingestLeaseSeconds,
    shutdownTimeoutSeconds: int(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 3600),
    catalogFile: env.CATALOG_FILE ? path.resolve(env.CATALOG_FILE) : null,
    demoStepSeconds: int(env, 'DEMO_STEP_SECONDS', 5, 1, 3600),
    demoSeed: env.DEMO_SEED ? int(env, 'DEMO_SEED', 1, 0, 2 ** 31 - 1) : null,
    deliver: bool(env, 'DELIVER', true),
    deliveryConcurrency: int(env, 'DELIVERY_CONCURRENCY', 128, 1, 2048),
    deliveryTimeoutMs: int(env, 'DELIVERY_TIMEOUT_MS', 15_000, 100, 120_000),
    deliveryHostConcurrency: int(env, 'DELIVERY_HOST_CONCURRENCY', Math.ceil(int(env, 'DELIVERY_CONCURRENCY', 128, 1, 2048) / 4), 1, 2048),
    alertFloodLimit: int(env, 'ALERT_FLOOD_LIMIT', 30, 1, 100_000),
    alertFloodWindowSeconds: int(env, 'ALERT_FLOOD_WINDOW_SECONDS', 900, 10, 86_400),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    emailFrom: emailFrom(env),
    slackBotToken: slackToken(env),
    slackApiUrl: withSlash(url(env, 'SLACK_API_URL', ['http:', 'https:']) ?? 'https://slack.com/api/'),
    pagerdutyEventsUrl: url(env, 'PAGERDUTY_EVENTS_URL', ['http:', 'https:']) ?? 'https://events.pagerduty.com/v2/enqueue',
    secretsKey: secretsKeys(env).key,
    secretsKeyPrevious: secretsKeys(env).previous,
    slackClientId: optional(env, 'SLACK_CLIENT_ID', /^[\x21-\x7e]{1,200}$/, 'must be the Slack app client id'),
    slackClientSecret: optional(env, 'SLACK_CLIENT_SECRET', /^[\x21-\x7e]{1,200}$/, 'must be the Slack app client secret'),
    slackOAuthUrl: url(env, 'SLACK_OAUTH_URL', ['http:', 'https:']) ?? 'https://slack.com/oauth/v2/authorize',
    opsgenieApiUrl: url(env, 'OPSGENIE_API_URL', ['http:', 'https:']),
    jsmApiUrl: url(env, 'JSM_API_URL', ['http:', 'https:']),
    datadogEventsUrl: url(env, 'DATADOG_EVENTS_URL', ['http:', 'https:']),
    telegramApiUrl: url(env, 'TELEGRAM_API_URL', ['http:', 'https:']) ?? 'https://api.telegram.org',
    rootlyApiUrl: url(env, 'ROOTLY_API_URL', ['http:', 'https:']),
    statuspageApiUrl: url(env, 'STATUSPAGE_API_URL', ['http:', 'https:']),
    instatusApiUrl: url(env, 'INSTATUS_API_URL', ['http:', 'https:']),
    metricsToken: metricsToken(env),
    corsOrigins: corsOrigins(env),
    metricsComponentSeries: bool(env, 'METRICS_COMPONENT_SERIES', false),
  };
}
