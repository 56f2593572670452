import { type AlertText, clip } from '../../domain/alert-text.ts';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';

// The parts every incident tool's alert body carries (FireHydrant, Rootly, incident.io,
// docs/alerts.md): one description, one key per vendor record, and the record's facts as
// fields. Each tool's builder puts them under its own names and limits.

/** Headline, status, impact, components, services and latest update, in paragraphs (at most 10,000 characters). */
export function incidentDescription(t: AlertText, headline: string = t.headline): string {
  return clip(
    [
      headline,
      t.status && `Status: ${t.status}`,
      `Impact: ${t.impact}`,
      t.components.length ? `Components: ${t.components.join(', ')}` : '',
      t.affects && `Services: ${t.affects}`,
      t.latest,
    ]
      .filter(Boolean)
      .join('\n\n'),
    10_000,
  );
}

/** The vendor record an alert stands for, `vendor:entity` (every event of one record shares it). */
export const recordKey = (d: Pick<Delivery, 'vendor' | 'entityId'>) => `${d.vendor}:${d.entityId}`;

/** The record's facts as structured fields (Rootly's `data`, incident.io's `metadata`). */
export function recordFacts(d: Pick<Delivery, 'vendor' | 'eventType' | 'id'>, t: AlertText): Record<string, unknown> {
  return {
    vendor: d.vendor,
    vendor_name: t.vendorName,
    event_type: d.eventType,
    impact: t.impact,
    status: t.status,
    components: t.components.slice(0, 50),
    delivery_id: d.id,
  };
}

/** A JSON `errors` list of a refusal (FireHydrant's strings, Rootly's JSON:API objects) in one line. */
export function errorsListDetail(body: string, describe: (e: unknown) => string): string {
  try {
    const j = JSON.parse(body) as { errors?: unknown };
    if (Array.isArray(j.errors)) return j.errors.map(describe).filter(Boolean).join('; ').slice(0, 200);
  } catch {
    /* not JSON */
  }
  return '';
}
