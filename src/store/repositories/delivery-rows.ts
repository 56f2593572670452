import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AlertChannel, DeliveryEventType } from '../../domain/alerts.ts';
import type { DeliveryStatus } from '../../domain/deliveries.ts';
import type { Database, DeliveriesTable } from '../schema.ts';
import { fromJson } from './json.ts';

// Delivery rows as the alert repositories share them: the row types, the
// mapping to and from columns, and the payload lookup. A row written by the
// dispatcher references its event's record in `alert_payloads` (migration 0950,
// `payload` = ''); rows without an event, and rows written before, carry it.

/** What identifies a delivery row and what it is about, written and read alike. */
interface DeliveryKey {
  id: string;
  eventSeq: number | null;
  orgId: string;
  channel: AlertChannel;
  eventType: DeliveryEventType;
  vendor: string;
  entityId: string;
  /** The alert route the row goes by; null = the notification preferences (docs/alert-routes.md). */
  routeId?: string | null;
  /** The entity whose thread a threaded channel posts into; null = its own (docs/alerts.md "Early warning"). */
  threadEntity?: string | null;
}

export interface Delivery extends DeliveryKey {
  payload: Record<string, unknown>;
  occurredAt: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  leaseOwner: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  isTest: boolean;
  /** Receiver key for the fair share of sending slots (docs/alerts.md); null = none. */
  receiver: string | null;
  readAt: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** A row read with a filter on its channel: its channel is one of those asked for. */
export type DeliveryOn<C extends AlertChannel> = Delivery & { channel: C };

export interface NewDelivery extends DeliveryKey {
  /** Serialised once per event and shared by its rows. */
  payloadJson: string;
  /** Written once for the event in `alert_payloads` (the dispatcher); the row itself holds ''. */
  payloadStoredApart?: boolean;
  occurredAt: string;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  isTest?: boolean;
  leaseOwner?: string | null;
  attempts?: number;
  /** Webhook host (with port) or the channel's service: the fair-share key (docs/alerts.md). */
  receiver?: string | null;
  /** JSON of the organisation's services the alert hits; absent = it has none (docs/alert-routes.md "Affected services in alerts"). */
  affectedServicesJson?: string;
}

export interface DeliveryAttempt {
  deliveryId: string;
  attempt: number;
  startedAt: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: 'succeeded' | 'retry' | 'failed' | 'disabled' | 'cancelled';
}

/** The result of one attempt, written by `complete`. */
export interface Completion {
  id: string;
  /** The attempt number the claim gave this row (guards against a lost lease). */
  attempt: number;
  owner: string;
  status: DeliveryStatus;
  /** For a retry: when the row is due again. */
  nextAttemptAt: string | null;
  statusCode: number | null;
  error: string | null;
  startedAt: string;
  latencyMs: number;
  outcome: DeliveryAttempt['outcome'];
}

/** Rows of one event share one parsed payload object (read-only). */
export type PayloadCache = Map<number, Record<string, unknown>>;

const toDelivery = (r: Selectable<DeliveriesTable>, payload: Record<string, unknown>): Delivery => ({
  id: r.id,
  eventSeq: r.event_seq === null ? null : Number(r.event_seq),
  orgId: r.org_id,
  // The columns hold only what the writers typed (NewDelivery), like `status`.
  channel: r.channel as AlertChannel,
  eventType: r.event_type as DeliveryEventType,
  vendor: r.vendor,
  entityId: r.entity_id,
  payload,
  occurredAt: r.occurred_at,
  status: r.status as DeliveryStatus,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  leaseOwner: r.lease_owner,
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  lastError: r.last_error,
  isTest: Boolean(r.is_test),
  receiver: r.receiver ?? null,
  routeId: r.route_id ? r.route_id : null,
  threadEntity: r.thread_entity ? r.thread_entity : null,
  readAt: r.read_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  completedAt: r.completed_at,
});

/**
 * Rows with their payloads: the event's from `alert_payloads` (one query per
 * call, each parsed once), or the row's own.
 */
export async function withPayloads(db: Kysely<Database>, rows: Selectable<DeliveriesTable>[], cache: PayloadCache = new Map()): Promise<Delivery[]> {
  const missing = [...new Set(rows.filter((r) => r.payload === '' && r.event_seq !== null).map((r) => Number(r.event_seq)))].filter((s) => !cache.has(s));
  for (const part of chunks(missing, ID_CHUNK)) {
    const found = await db.selectFrom('alert_payloads').select(['event_seq', 'payload']).where('event_seq', 'in', part).execute();
    for (const f of found) cache.set(Number(f.event_seq), fromJson<Record<string, unknown>>(f.payload, {}));
  }
  // A row of an organisation with services carries them beside the record: one merged
  // object per (record, stored list), so rows of one event and organisation still share it.
  const merged = new Map<Record<string, unknown>, Map<string, Record<string, unknown>>>();
  const withAffected = (r: Selectable<DeliveriesTable>, d: Delivery): Delivery => {
    const json = r.affected_services ?? '';
    if (!json) return d;
    let byJson = merged.get(d.payload);
    if (!byJson) merged.set(d.payload, (byJson = new Map()));
    let p = byJson.get(json);
    if (!p) byJson.set(json, (p = { ...d.payload, affectedServices: fromJson<unknown[]>(json, []) }));
    return { ...d, payload: p };
  };
  return rows.map((r) => withAffected(r, plainDelivery(r)));

  function plainDelivery(r: Selectable<DeliveriesTable>): Delivery {
    if (r.payload === '' && r.event_seq !== null) return toDelivery(r, cache.get(Number(r.event_seq)) ?? {});
    if (r.event_seq === null) return toDelivery(r, fromJson<Record<string, unknown>>(r.payload, {}));
    // Rows written before migration 0950: their own copy, parsed once per event.
    const seq = Number(r.event_seq);
    let p = cache.get(-seq - 1);
    if (!p) cache.set(-seq - 1, (p = fromJson<Record<string, unknown>>(r.payload, {})));
    return toDelivery(r, p);
  }
}

/** Columns of a new row; `payload: ''` when the event's payload is stored apart. */
export const toRow = (d: NewDelivery, now: string): Insertable<DeliveriesTable> => ({
  id: d.id,
  event_seq: d.eventSeq,
  org_id: d.orgId,
  channel: d.channel,
  event_type: d.eventType,
  vendor: d.vendor,
  entity_id: d.entityId,
  payload: d.eventSeq !== null && d.payloadStoredApart ? '' : d.payloadJson,
  occurred_at: d.occurredAt,
  status: d.status,
  attempts: d.attempts ?? 0,
  next_attempt_at: d.nextAttemptAt,
  lease_owner: d.leaseOwner ?? null,
  last_status_code: null,
  last_error: null,
  is_test: d.isTest ? 1 : 0,
  receiver: d.receiver ?? null,
  route_id: d.routeId ?? '',
  affected_services: d.affectedServicesJson ?? '',
  thread_entity: d.threadEntity ?? '',
  read_at: null,
  created_at: now,
  updated_at: now,
  completed_at: d.status === 'pending' ? null : now,
});

/** Rows per multi-row INSERT: 20 columns each stays far below both dialects' parameter limits. */
export const INSERT_CHUNK = 400;
/** Ids per `IN (…)` list. */
export const ID_CHUNK = 500;

export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
