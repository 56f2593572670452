import { IMPACTS, type Impact } from './records.ts';

// What counts as an alert (docs/alerts.md "What counts"): the kind of change
// an event is, per-channel rules on kinds and impact, and component
// subscriptions that are either one list for every vendor (the original form)
// or a list per vendor. Pure.

/** Kinds of change a channel can alert on. */
export const CHANGE_KINDS = ['created', 'status_changed', 'resolved', 'updated'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
/** A channel's own rules start with every kind but plain updates. */
export const DEFAULT_CHANGES: ChangeKind[] = ['created', 'status_changed', 'resolved'];

/** `["Actions"]` (any vendor) or `{"github": ["Actions", "Git Operations"]}` (per vendor). */
export type ComponentFilter = string[] | Record<string, string[]>;

/** A channel's own rules; null on the channel = the global `content_filters`. */
export interface ChannelRules {
  changes: ChangeKind[];
  min_impact: Impact;
  /** Empty = every component. */
  components: ComponentFilter;
}

export const defaultChannelRules = (): ChannelRules => ({ changes: [...DEFAULT_CHANGES], min_impact: 'none', components: [] });

interface UpdateLike {
  status?: unknown;
  createdAt?: unknown;
}

/**
 * The kind of change of an event. An `…updated` event is a status change when
 * its two newest updates carry different statuses (the newest update moved the
 * record, e.g. investigating → identified); otherwise it is a plain update (new
 * text, same status). Maintenance: scheduled = created, started = status change,
 * completed = resolved.
 */
export function changeKind(type: string, payload: { updates?: unknown }): ChangeKind {
  switch (type) {
    case 'incident.created':
    case 'maintenance.scheduled':
      return 'created';
    case 'incident.resolved':
    case 'maintenance.completed':
      return 'resolved';
    case 'maintenance.started':
      return 'status_changed';
    default: {
      const updates = (Array.isArray(payload.updates) ? (payload.updates as UpdateLike[]) : []).filter((u) => typeof u?.status === 'string');
      const newest = [...updates].sort((a, b) => String(b.createdAt ?? '').localeCompare(String(a.createdAt ?? '')));
      if (newest.length < 2) return 'updated';
      return newest[0]!.status !== newest[1]!.status ? 'status_changed' : 'updated';
    }
  }
}

const impactRank = (i: Impact) => IMPACTS.indexOf(i);
export const atLeast = (impact: Impact, min: Impact) => impactRank(impact) >= impactRank(min);

/**
 * Whether an event naming `components` of `vendor` passes a component filter.
 * List form: one of the names, whatever the vendor. Map form: only vendors in
 * the map are filtered (by their own list); others pass. Names match
 * case-insensitively; an event naming no component does not pass a filter that
 * applies to it.
 */
export function componentsMatch(filter: ComponentFilter | null, vendor: string, components: readonly string[]): boolean {
  if (!filter) return true;
  const wanted = Array.isArray(filter) ? filter : Object.hasOwn(filter, vendor) ? filter[vendor]! : null;
  if (!wanted?.length) return true;
  const set = new Set(wanted.map((c) => c.toLowerCase()));
  return components.some((c) => set.has(c.toLowerCase()));
}

/** Whether a channel's own rules let an event through. */
export function passesChannelRules(e: { kind: ChangeKind; impact: Impact; vendor: string; components: readonly string[] }, r: ChannelRules): boolean {
  return r.changes.includes(e.kind) && atLeast(e.impact, r.min_impact) && componentsMatch(r.components, e.vendor, e.components);
}

/** Names in a component filter (for bounds) and the vendors it keys. */
export function componentFilterSize(f: ComponentFilter): { names: number; vendors: string[] } {
  if (Array.isArray(f)) return { names: f.length, vendors: [] };
  return { names: Object.values(f).reduce((n, l) => n + (Array.isArray(l) ? l.length : 0), 0), vendors: Object.keys(f) };
}

/** Duplicates collapse (case kept from the first occurrence), in both forms. */
export function normalizeComponentFilter(f: ComponentFilter): ComponentFilter {
  const uniq = (l: string[]) => [...new Set(l)];
  if (Array.isArray(f)) return uniq(f);
  return Object.fromEntries(Object.entries(f).map(([v, l]) => [v, uniq(l)]));
}

/**
 * The account page's text form of a component filter: "Actions, Git Operations"
 * (any vendor) or "github: Actions, Git Operations; aws: EC2" (per vendor).
 */
export function componentFilterText(f: ComponentFilter | null): string {
  if (!f) return '';
  if (Array.isArray(f)) return f.join(', ');
  return Object.entries(f)
    .map(([v, l]) => `${v}: ${l.join(', ')}`)
    .join('; ');
}
