import { createHash } from 'node:crypto';
import { DIGEST_EVENT_TYPE, QUIET_EVENT_TYPE } from '../domain/alerts.ts';
import { digestPeriod } from '../domain/digests.ts';
import { eventLabel } from '../domain/events.ts';
import type { StoredPreferences } from '../domain/preferences.ts';
import { QUIET_CHANNELS, quietUntil } from '../domain/quiet-hours.ts';
import type { Delivery, NewDelivery } from '../store/repositories/deliveries-repository.ts';

// E-mail digests and quiet hours (docs/alerts.md "Digests", "Quiet hours"):
// alerts that are not sent one by one but gathered into one summary row per
// (user, channel, period). The row's id is a hash of those, so every dispatch
// batch (on any instance) adds to the same row while it has not been attempted;
// it is due when the period ends and is then sent by the workers like any row
// (lease, retries, same id on every attempt). A period with no change has no row.

/** Incidents listed in one summary; beyond that a count. */
export const MAX_SUMMARY_ITEMS = 100;

export interface SummaryItem {
  vendor: string;
  vendorName: string;
  entityId: string;
  title: string;
  status: string;
  impact: string;
  url: string | null;
  /** Event types seen for this record in the period, oldest first. */
  changes: string[];
  lastAt: string;
}

export interface SummaryPayload {
  id: string;
  vendor: string;
  vendorName: string;
  title: string;
  status: 'digest' | 'held';
  impact: 'none';
  components: string[];
  updates: { status: string; body: string; createdAt: string }[];
  url: null;
  kind: 'digest' | 'quiet';
  periodStart: string;
  periodEnd: string;
  timezone: string;
  /** Alerts gathered (changes), and how many records were not listed. */
  count: number;
  more: number;
  items: SummaryItem[];
}

export const heldSummaryId = (orgId: string, channel: string, kind: string, periodStart: string) =>
  `dlv_${createHash('sha256').update(`${orgId}\u0000${channel}\u0000${kind}\u0000${periodStart}`).digest('hex').slice(0, 32)}`;

interface Plan {
  kind: 'digest' | 'quiet';
  start: string;
  end: string;
}

/** Where a row of this user goes instead of being sent now, or null (sent now). */
export function planFor(row: NewDelivery, s: StoredPreferences, now: Date): Plan | null {
  if (row.eventSeq === null) return null;
  if (row.channel === 'email' && s.email.digest !== 'off') {
    const p = digestPeriod(now, s.timezone, s.email.digest);
    return { kind: 'digest', start: p.start.toISOString(), end: p.end.toISOString() };
  }
  if ((QUIET_CHANNELS as readonly string[]).includes(row.channel)) {
    const until = quietUntil(now, s.timezone, s.quiet_hours);
    // The period is named by its end: every alert of one night goes to one summary.
    if (until) return { kind: 'quiet', start: until.toISOString(), end: until.toISOString() };
  }
  return null;
}

/** Ids of the summary rows a batch's rows would go to (read before gathering: their running content). */
export function heldSummaryIds(rows: NewDelivery[], settingsOf: (orgId: string) => StoredPreferences | undefined, now: Date): string[] {
  const ids = new Set<string>();
  for (const r of rows) {
    const s = settingsOf(r.orgId);
    const plan = s ? planFor(r, s, now) : null;
    if (plan) ids.add(heldSummaryId(r.orgId, r.channel, plan.kind, plan.start));
  }
  return [...ids];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function itemOf(row: NewDelivery, payload: Record<string, unknown>): SummaryItem {
  return {
    vendor: row.vendor,
    vendorName: str(payload.vendorName) || row.vendor,
    entityId: row.entityId,
    title: str(payload.title),
    status: str(payload.status),
    impact: str(payload.impact) || 'none',
    url: str(payload.url) || null,
    changes: [row.eventType],
    lastAt: row.occurredAt,
  };
}

function titleOf(p: Pick<SummaryPayload, 'kind' | 'count' | 'items' | 'more'>, frequency: string): string {
  const vendors = new Map<string, number>();
  for (const i of p.items) vendors.set(i.vendor, (vendors.get(i.vendor) ?? 0) + i.changes.length);
  const named = [...vendors]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([v, n]) => `${v} (${n})`)
    .join(', ');
  const records = p.items.length + p.more;
  if (p.kind === 'digest') {
    return `${frequency === 'hourly' ? 'Hourly' : 'Daily'} digest: ${p.count} change${p.count === 1 ? '' : 's'} to ${records} record${records === 1 ? '' : 's'}${named ? `: ${named}` : ''}`;
  }
  return `${p.count} alert${p.count === 1 ? ' was' : 's were'} held during quiet hours${named ? `: ${named}` : ''}`;
}

/** One line per record: what changed and where it stands now. */
export function summaryLines(items: SummaryItem[], more: number): string {
  const lines = items.map(
    (i) =>
      `• ${i.vendorName}: ${i.title || i.entityId} — ${i.changes.map(eventLabel).join(', ')}; now ${i.status || 'unknown'} (${i.impact})${i.url ? ` ${i.url}` : ''}`,
  );
  if (more) lines.push(`… and ${more} more`);
  return lines.join('\n');
}

/**
 * Splits a batch's rows into those sent now and summary rows (new or with their
 * running content, read from `existing`). `payloadOf` gives the record of a row.
 */
export function gatherHeld(
  rows: NewDelivery[],
  settingsOf: (orgId: string) => StoredPreferences | undefined,
  payloadOf: (row: NewDelivery) => Record<string, unknown>,
  existing: ReadonlyMap<string, Delivery>,
  now: Date,
): { rows: NewDelivery[]; summaries: NewDelivery[] } {
  const kept: NewDelivery[] = [];
  const byId = new Map<string, { payload: SummaryPayload; first: NewDelivery; frequency: string }>();
  for (const row of rows) {
    const s = settingsOf(row.orgId);
    const plan = s ? planFor(row, s, now) : null;
    if (!plan || !s) {
      kept.push(row);
      continue;
    }
    const id = heldSummaryId(row.orgId, row.channel, plan.kind, plan.start);
    let entry = byId.get(id);
    if (!entry) {
      const before = existing.get(id)?.payload as Partial<SummaryPayload> | undefined;
      const payload: SummaryPayload = {
        id,
        vendor: row.vendor,
        vendorName: 'Vendor status alerts',
        title: '',
        status: plan.kind === 'digest' ? 'digest' : 'held',
        impact: 'none',
        components: [],
        updates: [],
        url: null,
        kind: plan.kind,
        periodStart: plan.kind === 'digest' ? plan.start : now.toISOString(),
        periodEnd: plan.end,
        timezone: s.timezone,
        count: Number(before?.count ?? 0),
        more: Number(before?.more ?? 0),
        items: Array.isArray(before?.items) ? before.items.map((i) => ({ ...i, changes: [...i.changes] })) : [],
      };
      if (plan.kind === 'quiet' && typeof before?.periodStart === 'string') payload.periodStart = before.periodStart;
      entry = { payload, first: row, frequency: s.email.digest };
      byId.set(id, entry);
    }
    const p = entry.payload;
    p.count++;
    const found = p.items.find((i) => i.vendor === row.vendor && i.entityId === row.entityId);
    const fresh = itemOf(row, payloadOf(row));
    if (found) {
      found.changes.push(row.eventType);
      Object.assign(found, {
        title: fresh.title || found.title,
        status: fresh.status,
        impact: fresh.impact,
        url: fresh.url ?? found.url,
        lastAt: fresh.lastAt,
      });
    } else if (p.items.length < MAX_SUMMARY_ITEMS) p.items.push(fresh);
    else p.more++;
  }
  const summaries: NewDelivery[] = [];
  for (const [id, { payload: p, first, frequency }] of byId) {
    p.title = titleOf(p, frequency);
    p.vendor = p.items[0]?.vendor ?? first.vendor;
    // The list is the summary's one "update", so every channel's renderer shows it.
    p.updates = [{ status: p.status, body: summaryLines(p.items, p.more), createdAt: p.periodEnd }];
    summaries.push({
      id,
      eventSeq: null,
      orgId: first.orgId,
      channel: first.channel,
      eventType: p.kind === 'digest' ? DIGEST_EVENT_TYPE : QUIET_EVENT_TYPE,
      vendor: p.vendor,
      entityId: id,
      payloadJson: JSON.stringify(p),
      occurredAt: p.periodEnd,
      status: 'pending',
      nextAttemptAt: p.periodEnd,
      receiver: first.receiver ?? null,
    });
  }
  return { rows: kept, summaries };
}
