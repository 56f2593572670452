import { type Static, Type } from '@sinclair/typebox';
import { MAX_EMAIL_RECIPIENTS, MAX_ROUTE_COMPONENTS, MAX_ROUTE_SERVICES, MAX_ROUTE_VENDORS, ROUTE_CHANNELS, ROUTE_KINDS } from './alert-routes.ts';
import { OPSGENIE_REGIONS, WEBHOOK_FORMATS } from './preferences.ts';
import { IMPACTS } from './records.ts';
import {
  CRITICALITIES,
  DEPENDENCY_KINDS,
  MAX_COMPONENT_ID,
  MAX_DEPENDENCIES,
  MAX_DEPENDENCY_COMPONENTS,
  MAX_DEPENDENCY_REGIONS,
  MAX_SERVICE_NAME,
  MAX_SERVICES,
  MAX_TAG,
  MAX_TAGS,
  SERVICE_NAME_PATTERN,
  TAG_PATTERN,
} from './team-services.ts';

// Config as code (docs/services.md "Config as code"): one declarative file for an
// organisation's services, named watchlists and alert routes. This module holds the file's
// schema (published as docs/config.schema.json) and the pure plan: what applying a file
// changes, item by item, matched by name.

export const CONFIG_VERSION = 1;
/** A config file's size at most, in characters. */
export const MAX_CONFIG_CHARS = 500_000;
/** YAML aliases a file may use at most (a small number defeats "billion laughs" files). */
export const MAX_CONFIG_ALIASES = 100;
const MAX_ROUTES_IN_FILE = 50;
const MAX_LISTS_IN_FILE = 50;
const MAX_LIST_VENDORS = 1000;

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'A vendor slug' });
const Text = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$', ...(description ? { description } : {}) });
const strict = { additionalProperties: false };

const Dependency = Type.Object(
  {
    vendor: Slug,
    kind: Type.Optional(Type.Union(DEPENDENCY_KINDS.map((k) => Type.Literal(k)))),
    components: Type.Optional(Type.Array(Text(MAX_COMPONENT_ID), { maxItems: MAX_DEPENDENCY_COMPONENTS, description: 'Component ids or exact names' })),
    regions: Type.Optional(Type.Array(Text(64), { maxItems: MAX_DEPENDENCY_REGIONS, description: 'Region codes, names or places' })),
  },
  strict,
);

const ServiceSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_SERVICE_NAME, pattern: SERVICE_NAME_PATTERN }),
    criticality: Type.Optional(Type.Union(CRITICALITIES.map((c) => Type.Literal(c)))),
    owner: Type.Optional(Type.Union([Text(80, 'The name of an alert route of the file or of the organisation'), Type.Null()])),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_TAG, pattern: TAG_PATTERN }), { maxItems: MAX_TAGS })),
    dependencies: Type.Optional(Type.Array(Dependency, { maxItems: MAX_DEPENDENCIES })),
  },
  strict,
);

const WatchlistSchema = Type.Object({ name: Text(80), vendors: Type.Array(Slug, { maxItems: MAX_LIST_VENDORS }) }, strict);

const Url = Type.String({ minLength: 1, maxLength: 2048 });
/** A destination with its fields (a new route), or `ref`: keep the stored destination of that route. */
const DestinationSchema = Type.Union([
  Type.Object(
    {
      channel: Type.Optional(Type.Union(ROUTE_CHANNELS.map((c) => Type.Literal(c)))),
      ref: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    },
    { ...strict, title: 'Kept destination' },
  ),
  Type.Object({ channel: Type.Literal('webhook'), url: Url, format: Type.Optional(Type.Union(WEBHOOK_FORMATS.map((f) => Type.Literal(f)))) }, strict),
  Type.Object({ channel: Type.Literal('pagerduty'), routingKey: Type.String({ minLength: 1, maxLength: 64 }) }, strict),
  Type.Object(
    {
      channel: Type.Literal('opsgenie'),
      apiKey: Type.String({ minLength: 1, maxLength: 64 }),
      region: Type.Optional(Type.Union(OPSGENIE_REGIONS.map((r) => Type.Literal(r)))),
    },
    strict,
  ),
  Type.Object({ channel: Type.Literal('jsm'), apiKey: Type.String({ minLength: 1, maxLength: 64 }) }, strict),
  Type.Object({ channel: Type.Literal('slack'), conversation: Type.String({ minLength: 1, maxLength: 64 }) }, strict),
  Type.Object({ channel: Type.Literal('teams'), url: Url }, strict),
  Type.Object({ channel: Type.Literal('google_chat'), url: Url }, strict),
  Type.Object(
    { channel: Type.Literal('email'), to: Type.Array(Type.String({ minLength: 3, maxLength: 254 }), { minItems: 1, maxItems: MAX_EMAIL_RECIPIENTS }) },
    strict,
  ),
]);

const Clock = Type.String({ pattern: '^\\d{2}:\\d{2}$' });
const FiltersSchema = Type.Object(
  {
    watchlist: Type.Optional(Type.Union([Text(80, 'A named watchlist of the file or of the organisation'), Type.Null()])),
    vendors: Type.Optional(Type.Union([Type.Array(Slug, { maxItems: MAX_ROUTE_VENDORS }), Type.Null()])),
    components: Type.Optional(Type.Array(Text(200), { maxItems: MAX_ROUTE_COMPONENTS })),
    minImpact: Type.Optional(Type.Union(IMPACTS.map((i) => Type.Literal(i)))),
    kinds: Type.Optional(Type.Array(Type.Union(ROUTE_KINDS.map((k) => Type.Literal(k))), { minItems: 1, maxItems: ROUTE_KINDS.length })),
    maintenance: Type.Optional(Type.Boolean()),
    quietHours: Type.Optional(Type.Union([Type.Object({ start: Clock, end: Clock, timezone: Text(64) }, strict), Type.Null()])),
    onlyAffectingServices: Type.Optional(Type.Boolean()),
    services: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_SERVICE_NAME, pattern: SERVICE_NAME_PATTERN }), { maxItems: MAX_ROUTE_SERVICES }),
    ),
  },
  strict,
);

const RouteSchema = Type.Object(
  { name: Text(80), enabled: Type.Optional(Type.Boolean()), destination: DestinationSchema, filters: Type.Optional(FiltersSchema) },
  strict,
);

export const ConfigFileSchema = Type.Object(
  {
    version: Type.Literal(CONFIG_VERSION),
    services: Type.Optional(Type.Array(ServiceSchema, { maxItems: MAX_SERVICES })),
    watchlists: Type.Optional(Type.Array(WatchlistSchema, { maxItems: MAX_LISTS_IN_FILE })),
    routes: Type.Optional(Type.Array(RouteSchema, { maxItems: MAX_ROUTES_IN_FILE })),
  },
  {
    ...strict,
    $id: 'https://vendor-status.example/config.schema.json',
    title: 'Organisation configuration',
    description: 'An organisation\'s services, named watchlists and alert routes (docs/services.md "Config as code")',
  },
);

export type ConfigFile = Static<typeof ConfigFileSchema>;
export type ConfigService = Static<typeof ServiceSchema>;
export type ConfigRoute = Static<typeof RouteSchema>;
export type ConfigWatchlist = Static<typeof WatchlistSchema>;

/** A problem of a file: where (path and line) and what. */
export interface ConfigProblem {
  path: string;
  line: number | null;
  message: string;
}

export type PathPart = string | number;

/** `services[0].dependencies[1].vendor` */
export function formatPath(parts: readonly PathPart[]): string {
  let out = '';
  for (const p of parts) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out || '(file)';
}

/** Characters a file may not hold: control characters other than tab and line ends. */
export const CONFIG_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export type ConfigKind = 'service' | 'watchlist' | 'route';
export type ConfigAction = 'create' | 'update' | 'delete' | 'unchanged';

export interface PlanItem {
  kind: ConfigKind;
  name: string;
  action: ConfigAction;
  /** For updates: the fields that differ. */
  fields?: string[];
}

/** Desired and stored items in one comparable form (no ids, no timestamps). */
export interface Comparable {
  name: string;
  value: Record<string, unknown>;
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );

/**
 * What applying `desired` to `stored` does for one kind: create, update (naming the
 * fields), unchanged, and, with `prune`, delete what the file does not name.
 */
export function planKind(kind: ConfigKind, desired: readonly Comparable[], stored: readonly Comparable[], prune: boolean): PlanItem[] {
  const byName = new Map(stored.map((s) => [s.name, s]));
  const out: PlanItem[] = [];
  for (const d of desired) {
    const s = byName.get(d.name);
    if (!s) {
      out.push({ kind, name: d.name, action: 'create' });
      continue;
    }
    const fields = [...new Set([...Object.keys(d.value), ...Object.keys(s.value)])].filter((k) => stable(d.value[k]) !== stable(s.value[k])).sort();
    out.push(fields.length ? { kind, name: d.name, action: 'update', fields } : { kind, name: d.name, action: 'unchanged' });
  }
  if (prune) {
    const named = new Set(desired.map((d) => d.name));
    for (const s of stored) if (!named.has(s.name)) out.push({ kind, name: s.name, action: 'delete' });
  }
  return out;
}

/** Names given twice in one list: each later occurrence's index. */
export function duplicateNames(items: readonly { name: string }[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  items.forEach((x, i) => {
    if (seen.has(x.name)) out.push(i);
    seen.add(x.name);
  });
  return out;
}

/** One line per item that changes, then a count: what the CLI prints and the API answers as `summary`. */
export function planSummary(items: readonly PlanItem[]): { create: number; update: number; delete: number; unchanged: number } {
  const n = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const i of items) n[i.action]++;
  return n;
}
