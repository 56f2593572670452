import { latestUpdate } from '../../domain/record-views.ts';
import type { Incident, Maintenance, RecordUpdate } from '../../domain/records.ts';

// Plain-text renderings an assistant can quote. Short lines, UTC times, the
// latest update of each record (trimmed), and the link to the vendor's page.

export const when = (iso: string | null): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'unknown');

function duration(minutes: number): string {
  if (minutes < 1) return 'under a minute';
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = Math.floor(minutes % 60);
  return [d ? `${d}d` : '', h ? `${h}h` : '', m && !d ? `${m}m` : ''].filter(Boolean).join(' ') || '0m';
}

const minutesSince = (iso: string, now: Date) => Math.max(0, (now.getTime() - Date.parse(iso)) / 60_000);

function trim(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * One line of upstream text: line breaks and other controls become spaces, so a
 * title cannot start a line of its own that reads like ours (docs/security.md).
 */
export function oneLine(text: string, max = 300): string {
  return trim(text.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, ' '), max);
}

/** A link shown to the assistant: http(s) only. */
const link = (url: string | null) => (url && /^https?:\/\/[^\s]+$/.test(url) ? url : null);

const names = (list: string[]) =>
  `${list
    .slice(0, 8)
    .map((c) => oneLine(c, 100))
    .join(', ')}${list.length > 8 ? ', …' : ''}`;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The newest update by time (not by position: upstreams order them either way), one line. */
function latestLine(updates: readonly RecordUpdate[]): string | null {
  const latest = latestUpdate(updates);
  if (!latest) return null;
  const text = oneLine(latest.body, 240) || `${oneLine(latest.status, 40)} (no text)`;
  return `  Latest update (${when(latest.createdAt)}): ${text}`;
}

export function incidentLine(i: Incident, now: Date, withVendor = true): string {
  const who = withVendor ? `${oneLine(i.vendorName)}: ` : '';
  const timing = i.resolvedAt
    ? `started ${when(i.startedAt)}, resolved ${when(i.resolvedAt)}${i.durationMinutes !== null ? ` (${duration(i.durationMinutes)})` : ''}`
    : `${i.status} since ${when(i.startedAt)} (${duration(minutesSince(i.startedAt, now))} so far)`;
  const parts = [`- ${who}${oneLine(i.title)} [impact ${i.impact}] ${timing}`];
  if (i.components.length) parts.push(`  Affects: ${names(i.components)}`);
  const latest = latestLine(i.updates);
  if (latest) parts.push(latest);
  if (link(i.url)) parts.push(`  ${link(i.url)}`);
  return parts.join('\n');
}

export function maintenanceLine(m: Maintenance, withVendor = true): string {
  const who = withVendor ? `${oneLine(m.vendorName)}: ` : '';
  const until = m.scheduledUntil ? ` to ${when(m.scheduledUntil)}` : '';
  const actual = [m.startedAt ? `started ${when(m.startedAt)}` : '', m.completedAt ? `completed ${when(m.completedAt)}` : ''].filter(Boolean);
  const parts = [
    `- ${who}${oneLine(m.title)} [${m.status}] [impact ${m.impact}] ${when(m.scheduledFor)}${until}${actual.length ? `; ${actual.join(', ')}` : ''}`,
  ];
  if (m.components.length) parts.push(`  Affects: ${names(m.components)}`);
  const latest = latestLine(m.updates);
  if (latest) parts.push(latest);
  if (link(m.url)) parts.push(`  ${link(m.url)}`);
  return parts.join('\n');
}

export function freshness(lastUpdated: string | null, source: 'live' | 'demo'): string {
  const origin = source === 'demo' ? ' (demo data from the simulated vendor fleet)' : '';
  return lastUpdated ? `Data as of ${when(lastUpdated)}${origin}.` : `No status page has been polled successfully yet, so this may be incomplete${origin}.`;
}
