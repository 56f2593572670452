import ical, { ICalEventStatus } from 'ical-generator';
import type { Maintenance } from '../../domain/records.ts';

// Maintenance windows as an iCalendar (RFC 5545) document, for calendar apps that
// subscribe to a URL (docs/integrations.md, "Public feeds"). ical-generator does the
// lexical work (CRLF, 75-octet folding without splitting UTF-8, TEXT escaping);
// every time is UTC, so no VTIMEZONE is needed. No METHOD: a subscribed feed is not
// a scheduling message.

/** RFC 5545 §3.3.11: TEXT has no control characters but the newline (escaped as \n) and tab. */
const text = (s: string) => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');

/** Stable across refreshes (RFC 5545 §3.8.4.7): the record's identity, never the request's host. */
const maintenanceUid = (m: Pick<Maintenance, 'vendor' | 'id'>) => `maintenance-${m.vendor}-${m.id}@vendor-status-api`;

export function maintenanceCalendar(o: { name: string; windows: Maintenance[]; now: Date }): string {
  const cal = ical({
    name: o.name,
    prodId: { company: 'Vendor Status API', product: 'Maintenance', language: 'EN' },
  });
  for (const m of o.windows) {
    const last = m.updates.at(-1);
    const description = [
      `Status: ${m.status.replace('_', ' ')}`,
      m.impact !== 'none' ? `Impact: ${m.impact}` : null,
      m.components.length ? `Components: ${m.components.join(', ')}` : null,
      last?.body ? `\n${last.body}` : null,
    ]
      .filter((l) => l !== null)
      .join('\n');
    const start = new Date(m.scheduledFor);
    const endAt = m.scheduledUntil ?? m.completedAt;
    // An end before the start (an upstream's mistake) would make the event invalid: leave it open.
    const end = endAt && Date.parse(endAt) > start.getTime() ? new Date(endAt) : undefined;
    cal.createEvent({
      id: maintenanceUid(m),
      // Every change of the window is an update, so their count orders the versions.
      sequence: m.updates.length,
      stamp: o.now,
      lastModified: last ? new Date(last.createdAt) : undefined,
      start,
      // The announced end, else when it was completed; open-ended windows have none.
      end,
      summary: text(`${m.vendorName}: ${m.title}`),
      description: text(description),
      url: m.url ?? undefined,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  const out = cal.toString();
  // RFC 5545 §3.1: every content line, the last one included, ends with CRLF.
  return out.endsWith('\r\n') ? out : `${out}\r\n`;
}
