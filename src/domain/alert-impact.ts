import { affectedServices, type Confidence, type ImpactIndex, impactIndex, type ImpactRecord, recordComponents, signalImpactRecord } from './impact.ts';
import { regionsNamedIn } from './regions.ts';
import type { Criticality, Dependency } from './team-services.ts';

// What an alert says it hits (docs/alert-routes.md "Affected services in alerts"): for one
// event and one organisation with services, the services the impact rules find, each with
// the dependency it is hit through ("checkout-api (critical) via Stripe: API"). Pure: the
// dispatcher reads the services and the components and stores the answer with the row.

/** One affected service as an alert carries it (`affectedServices` of the payload). */
export interface AlertAffectedService {
  serviceId: string;
  serviceName: string;
  criticality: Criticality;
  confidence: Confidence;
  reasons: string[];
  /** The dependency in words: the vendor's name, then the components or regions matched. */
  via: string;
}

/** A service as the alert rules read it: the impact rules' part and the route that owns it. */
export interface AlertService {
  id: string;
  name: string;
  criticality: Criticality;
  ownerRouteId: string | null;
  dependencies: Dependency[];
}

/** One hit with the owner route of its service (routing reads it; the payload does not carry it). */
export type AlertHit = AlertAffectedService & { ownerRouteId: string | null };

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** An event's payload (the Incident or Maintenance record) as the impact rules read it. */
export function impactRecordOfPayload(
  vendor: string,
  eventType: string,
  payload: Record<string, unknown>,
  components: ReadonlyMap<string, string> | undefined,
): ImpactRecord {
  const names = Array.isArray(payload.components) ? payload.components.map((c) => String(c)) : [];
  const updates = Array.isArray(payload.updates) ? (payload.updates as { createdAt?: unknown; body?: unknown }[]) : [];
  return {
    kind: eventType.startsWith('maintenance.') ? 'maintenance' : 'incident',
    id: str(payload.id),
    vendor,
    title: str(payload.title),
    components: recordComponents(names, components),
    updates: updates.map((u) => ({ createdAt: str(u?.createdAt), body: str(u?.body) })),
  };
}

/** The services one record hits, with the dependency each is hit through. */
export function alertHits(record: ImpactRecord, vendorName: string, services: readonly AlertService[], index: ImpactIndex): AlertHit[] {
  const byId = new Map(services.map((s) => [s.id, s]));
  const text = [record.title, ...record.updates.map((u) => u.body)].join('\n');
  const named = new Set(regionsNamedIn(text).map((m) => m.region.code));
  return affectedServices(record, index).map((h) => {
    const service = byId.get(h.serviceId);
    const dep = service?.dependencies.find((d) => d.vendor === record.vendor);
    const components = dep ? record.components.filter((c) => c.id !== null && dep.components.includes(c.id)).map((c) => c.name) : [];
    const regions = dep ? dep.regions.filter((r) => named.has(r)) : [];
    const what = [...new Set([...components, ...regions])];
    return {
      serviceId: h.serviceId,
      serviceName: h.serviceName,
      criticality: h.criticality,
      confidence: h.confidence,
      reasons: h.reasons,
      via: what.length ? `${vendorName}: ${what.join(', ')}` : vendorName,
      ownerRouteId: service?.ownerRouteId ?? null,
    };
  });
}

/**
 * The services an early-warning signal may hit (docs/services.md "Impact rules"): the same
 * rules as a record's, read from the components and regions its evidence names.
 */
export function signalHits(
  signal: { id: string; vendor: string; components: readonly string[]; regions: readonly string[] },
  summaries: readonly string[],
  vendorName: string,
  services: readonly AlertService[],
  known: ReadonlyMap<string, string> | undefined,
): AlertHit[] {
  if (!services.length) return [];
  return alertHits(signalImpactRecord(signal, summaries, known), vendorName, services, impactIndex(services));
}

/** Services an alert lists at most: the most certain and most critical first (its body stays small). */
export const MAX_ALERT_SERVICES = 50;

/** The payload's form of the hits (without the owner routes), the first `MAX_ALERT_SERVICES`. */
export const payloadHits = (hits: readonly AlertHit[]): AlertAffectedService[] => hits.slice(0, MAX_ALERT_SERVICES).map(({ ownerRouteId: _, ...rest }) => rest);

/** Services named in one alert line; the rest is counted. */
const SHOWN = 5;

/**
 * "affects checkout-api (critical) via Stripe: API; web (medium) via Stripe", or null when
 * nothing is hit. Reads the payload's `affectedServices` as stored (any shape: a row written
 * by an older version may lack it).
 */
export function affectsLine(value: unknown): string | null {
  if (!Array.isArray(value) || !value.length) return null;
  const parts = value.slice(0, SHOWN).map((v) => {
    const o = (v ?? {}) as Record<string, unknown>;
    const via = str(o.via);
    return `${str(o.serviceName) || '?'} (${str(o.criticality) || 'medium'})${via ? ` via ${via}` : ''}`;
  });
  const more = value.length > SHOWN ? ` and ${value.length - SHOWN} more` : '';
  return `affects ${parts.join('; ')}${more}`;
}
