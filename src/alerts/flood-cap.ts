import { createHash } from 'node:crypto';
import { isPagingChannel } from '../domain/alert-routes.ts';
import { HELD_EVENT_TYPE, isPushChannel } from '../domain/alerts.ts';
import type { DeliveriesRepository, NewDelivery } from '../store/repositories/deliveries-repository.ts';

// Flood cap (docs/alerts.md "Flood cap"): per user and push channel at most
// `limit` alerts per fixed window of `windowMs` (aligned to the epoch). Alerts
// beyond it are not sent one by one; they are counted into exactly one summary
// row per (user, channel, window), due when the window ends, so the receiver
// learns how many were held back and about which vendors. In-app and feed rows
// are not capped (they keep every alert). Counts come from the rows already
// written in the window: dispatch commits are serialised by the cursor
// (dispatcher.ts), so a batch sees every earlier batch's rows.

export { HELD_EVENT_TYPE };

export interface FloodCap {
  limit: number;
  windowMs: number;
}

export interface HeldSummary {
  held: number;
  windowStart: string;
  windowEnd: string;
  /** Held alerts per vendor. */
  vendors: Record<string, number>;
}

const key = (orgId: string, channel: string) => `${orgId}\u0000${channel}`;

/**
 * Resolves of channels that close alerts by key (the paging channels: PagerDuty, Opsgenie,
 * JSM, incident.io, Datadog ...) are never held: they page nobody, and a held one would leave
 * an incident (an Opsgenie or JSM alert) open for good. They do not use up the cap either.
 */
const uncapped = (r: NewDelivery) =>
  !isPushChannel(r.channel) || (isPagingChannel(r.channel) && (r.eventType === 'incident.resolved' || r.eventType === 'maintenance.completed'));

/** Same id for every batch of one window, so batches add to one summary row. */
export const summaryId = (orgId: string, channel: string, windowStart: string) =>
  `dlv_${createHash('sha256').update(`${orgId}\u0000${channel}\u0000${windowStart}`).digest('hex').slice(0, 32)}`;

/**
 * Splits rows (in event order) into those sent and those held back, given how
 * many each (user, channel) already has in the window. Pure.
 */
export function splitByCap(rows: NewDelivery[], already: Map<string, number>, limit: number): { kept: NewDelivery[]; held: NewDelivery[] } {
  const used = new Map(already);
  const kept: NewDelivery[] = [];
  const held: NewDelivery[] = [];
  for (const r of rows) {
    if (uncapped(r)) {
      kept.push(r);
      continue;
    }
    const k = key(r.orgId, r.channel);
    const n = used.get(k) ?? 0;
    if (n < limit) {
      used.set(k, n + 1);
      kept.push(r);
    } else held.push(r);
  }
  return { kept, held };
}

function summaryPayload(s: HeldSummary, id: string) {
  const vendors = Object.entries(s.vendors).sort((a, b) => b[1] - a[1]);
  const named = vendors
    .slice(0, 5)
    .map(([v, n]) => `${v} (${n})`)
    .join(', ');
  return {
    id,
    vendor: vendors[0]?.[0] ?? '',
    vendorName: 'Vendor status alerts',
    title: `${s.held} more alert${s.held === 1 ? ' was' : 's were'} held back${named ? `: ${named}` : ''}`,
    status: 'held',
    impact: 'none',
    components: [],
    updates: [],
    url: null,
    ...s,
  };
}

/**
 * Applies the cap to a dispatch batch: the rows to insert, and the summary rows to
 * insert or update (their payload carries the running count of the window).
 */
export async function applyFloodCap(
  rows: NewDelivery[],
  deliveries: Pick<DeliveriesRepository, 'countSince' | 'getMany'>,
  cap: FloodCap,
  now: Date,
): Promise<{ rows: NewDelivery[]; summaries: NewDelivery[] }> {
  const push = rows.filter((r) => isPushChannel(r.channel));
  if (!push.length) return { rows, summaries: [] };
  const start = Math.floor(now.getTime() / cap.windowMs) * cap.windowMs;
  const windowStart = new Date(start).toISOString();
  const windowEnd = new Date(start + cap.windowMs).toISOString();
  const users = [...new Set(push.map((r) => r.orgId))];
  const already = await deliveries.countSince(users, windowStart);
  const { kept, held } = splitByCap(rows, already, cap.limit);
  if (!held.length) return { rows: kept, summaries: [] };

  const byKey = new Map<string, NewDelivery[]>();
  for (const r of held) {
    const k = key(r.orgId, r.channel);
    const list = byKey.get(k);
    if (list) list.push(r);
    else byKey.set(k, [r]);
  }
  const ids = [...byKey.values()].map((list) => summaryId(list[0]!.orgId, list[0]!.channel, windowStart));
  const existing = await deliveries.getMany(ids);
  const summaries: NewDelivery[] = [];
  for (const list of byKey.values()) {
    const { orgId, channel, receiver } = list[0]!;
    const id = summaryId(orgId, channel, windowStart);
    const before = existing.get(id)?.payload as Partial<HeldSummary> | undefined;
    const s: HeldSummary = { held: Number(before?.held ?? 0), windowStart, windowEnd, vendors: { ...(before?.vendors ?? {}) } };
    for (const r of list) {
      s.held++;
      s.vendors[r.vendor] = (s.vendors[r.vendor] ?? 0) + 1;
    }
    summaries.push({
      id,
      eventSeq: null,
      orgId,
      channel,
      eventType: HELD_EVENT_TYPE,
      vendor: summaryPayload(s, id).vendor,
      entityId: id,
      payloadJson: JSON.stringify(summaryPayload(s, id)),
      occurredAt: windowEnd,
      status: 'pending',
      // Sent once the window is over, with the final count.
      nextAttemptAt: windowEnd,
      receiver,
    });
  }
  return { rows: kept, summaries };
}
