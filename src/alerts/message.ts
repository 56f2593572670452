import { eventLabel } from '../domain/events.ts';
import { cleanBody, cleanLine, httpUrlOrNull, LIMITS } from '../domain/upstream-text.ts';
import type { Delivery } from '../store/repositories/deliveries-repository.ts';

// Human wording of an alert, shared by the channels that write for people
// (Discord, Slack, e-mail, feeds). The payload is the Incident or Maintenance
// record as the API serves it. Its text was cleaned at ingestion; it is cleaned
// again here for payloads stored before that (docs/security.md), and each format
// escapes for itself.

export interface AlertText {
  /** e.g. "GitHub: Degraded performance of Actions" */
  title: string;
  /** e.g. "Incident created", "Maintenance started" */
  headline: string;
  status: string;
  impact: string;
  components: string[];
  /** Latest update text, if any. */
  latest: string | null;
  url: string | null;
  vendorName: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function alertText(d: Pick<Delivery, 'eventType' | 'vendor' | 'payload' | 'isTest'>): AlertText {
  const p = d.payload;
  const vendorName = cleanLine(str(p.vendorName) || d.vendor);
  const updates = Array.isArray(p.updates) ? (p.updates as { body?: unknown; createdAt?: unknown }[]) : [];
  // Updates are stored newest first or oldest first depending on the upstream: take the newest by time.
  const newest = [...updates].sort((a, b) => str(b.createdAt).localeCompare(str(a.createdAt)))[0];
  return {
    title: `${d.isTest ? '[Test] ' : ''}${vendorName}: ${cleanLine(str(p.title)) || 'alert'}`,
    headline: eventLabel(d.eventType),
    status: cleanLine(str(p.status), LIMITS.label),
    impact: cleanLine(str(p.impact), LIMITS.label) || 'none',
    components: Array.isArray(p.components) ? (p.components as unknown[]).map((c) => cleanLine(String(c), LIMITS.label)) : [],
    latest: newest ? cleanBody(str(newest.body)) || null : null,
    url: httpUrlOrNull(str(p.url)),
    vendorName,
  };
}

/** Cuts text to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
