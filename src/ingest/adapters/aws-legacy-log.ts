// The legacy AWS dashboard (data.json) keeps an event's whole log in one HTML
// `description`: one <div> per update, each starting with a local wall-clock time
// ("12:53 PM PDT", or "Sep  1, 12:34 AM PDT" when the event crossed days) and no year.
// Times are resolved forward from the event's start epoch.
import { htmlToText } from './text.ts';
import { monthIndex, wallClockToIso, ZONE_OFFSETS_MINUTES } from './time.ts';

export interface LogLine {
  createdAt: string;
  body: string;
}

const LINE_RE = /<span class="yellowfg">([^<]*)<\/span>([\s\S]*?)(?=<span class="yellowfg">|$)/gi;
const TIME_RE = /^(?:([A-Za-z]{3})\s+(\d{1,2}),\s*)?(\d{1,2}):(\d{2})\s*(AM|PM)\s*([A-Z]{2,4})?$/i;
const DAY_MS = 24 * 3600 * 1000;

export function parseAwsLog(descriptionHtml: string, startIso: string): LogLine[] {
  const lines: LogLine[] = [];
  let previous = startIso;
  for (const m of descriptionHtml.matchAll(LINE_RE)) {
    const stamp = htmlToText(m[1]);
    const body = htmlToText(m[2]);
    const t = TIME_RE.exec(stamp);
    if (!t) {
      // An unreadable stamp keeps the text, dated like the line before it.
      if (body) lines.push({ createdAt: previous, body });
      continue;
    }
    const offset = ZONE_OFFSETS_MINUTES[(t[6] ?? 'PST').toUpperCase()] ?? -480;
    const hour = (Number(t[3]) % 12) + (t[5]!.toUpperCase() === 'PM' ? 12 : 0);
    const minute = Number(t[4]);
    let createdAt: string;
    if (t[1]) {
      createdAt = wallClockToIso({ month: monthIndex(t[1]), day: Number(t[2]), hour, minute }, offset, previous);
    } else {
      // Same local day as the previous line; the next day when the clock went back by
      // more than half a day (a small step back is a back-dated line, not midnight).
      const local = new Date(new Date(previous).getTime() + offset * 60_000);
      let at = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), hour, minute) - offset * 60_000;
      if (at < new Date(previous).getTime() - DAY_MS / 2) at += DAY_MS;
      createdAt = new Date(at).toISOString();
    }
    // The log is written to the minute while the event epoch has seconds: a first line
    // stamped in the start minute is the start itself, not a moment before it.
    if (createdAt < startIso && new Date(startIso).getTime() - new Date(createdAt).getTime() < 60_000) createdAt = startIso;
    lines.push({ createdAt, body });
    previous = createdAt;
  }
  return lines;
}
