import { affectsLine } from './alert-impact.ts';
import { eventLabel } from './events.ts';
import { escapeHtml } from './html-escape.ts';
import { cleanBody, cleanLine, httpUrlOrNull, LIMITS } from './upstream-text.ts';

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
  /**
   * What the alert hits of the organisation's services, e.g. "affects checkout-api (critical)
   * via Stripe: API"; null when nothing is hit or the organisation has no services.
   */
  affects: string | null;
}

/** What the wording is made from: a delivery row, or anything shaped like one. */
export interface AlertSubject {
  eventType: string;
  vendor: string;
  payload: Record<string, unknown>;
  isTest: boolean;
  occurredAt: string;
  /** Null for rows that stand for several alerts (digests, quiet-hour summaries). */
  eventSeq?: number | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function alertText(d: Omit<AlertSubject, 'occurredAt'>): AlertText {
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
    affects: affectsOf(p.affectedServices),
  };
}

/** The affected services in one cleaned line (docs/alert-routes.md "Affected services in alerts"). */
function affectsOf(value: unknown): string | null {
  const line = affectsLine(value);
  return line ? cleanLine(line, 1000) : null;
}

/** Cuts text to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

const cleanTitle = (s: string) => s.replace(/[\u0000-\u001f]+/g, ' ').trim();

/** Digests and quiet-hour summaries (docs/alerts.md): their title and one line per record. */
function summaryMessage(d: AlertSubject, t: AlertText): { subject: string; text: string; html: string } {
  const title = cleanTitle(String(d.payload.title ?? t.title));
  const subject = clip(title.replace(/[\r\n]+/g, ' '), 200);
  const lines = (t.latest ?? '').split('\n').filter(Boolean);
  const footer = `${d.eventType}, ${String(d.payload.periodStart ?? '')} – ${String(d.payload.periodEnd ?? '')} (${String(d.payload.timezone ?? 'UTC')}). You receive this because of your notification preferences.`;
  const text = [title, '', ...lines, '', footer].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h2>${escapeHtml(title)}</h2>`,
    `<ul>${lines.map((l) => `<li>${escapeHtml(l.replace(/^• /, ''))}</li>`).join('')}</ul>`,
    `<p style="color:#666;font-size:small">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/** One alert as an e-mail (and as the personal feed's item text). */
export function emailMessage(d: AlertSubject): { subject: string; text: string; html: string } {
  const t = alertText(d);
  if (d.eventSeq === null && Array.isArray(d.payload.items)) return summaryMessage(d, t);
  const subject = clip(`[${t.headline}] ${t.title}`.replace(/[\r\n]+/g, ' '), 200);
  const lines = [
    `${t.headline}: ${t.title}`,
    '',
    `Status: ${t.status || '-'}`,
    `Impact: ${t.impact}`,
    ...(t.components.length ? [`Components: ${t.components.join(', ')}`] : []),
    ...(t.affects ? [`Services: ${t.affects}`] : []),
    ...(t.latest ? ['', t.latest] : []),
    ...(t.url ? ['', t.url] : []),
    '',
    `${d.eventType} at ${d.occurredAt}`,
    'You receive this because of your notification preferences.',
  ];
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h2>${escapeHtml(t.headline)}: ${escapeHtml(t.title)}</h2>`,
    '<table>',
    `<tr><th align="left">Status</th><td>${escapeHtml(t.status || '-')}</td></tr>`,
    `<tr><th align="left">Impact</th><td>${escapeHtml(t.impact)}</td></tr>`,
    ...(t.components.length ? [`<tr><th align="left">Components</th><td>${escapeHtml(t.components.join(', '))}</td></tr>`] : []),
    ...(t.affects ? [`<tr><th align="left">Services</th><td>${escapeHtml(t.affects)}</td></tr>`] : []),
    '</table>',
    ...(t.latest ? [`<p>${escapeHtml(t.latest)}</p>`] : []),
    ...(t.url ? [`<p><a href="${escapeHtml(t.url)}">${escapeHtml(t.url)}</a></p>`] : []),
    `<p style="color:#666;font-size:small">${escapeHtml(d.eventType)} at ${escapeHtml(d.occurredAt)}. You receive this because of your notification preferences.</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text: lines.join('\n'), html };
}
