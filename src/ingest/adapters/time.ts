// Timestamp normalisation. Every record timestamp is `new Date(x).toISOString()`.
// Optional dates that cannot be read become null; required ones raise AdapterError.
import { AdapterError } from './adapter.ts';

/**
 * Parses an upstream date string (ISO-8601, RFC 822/1123 incl. US zone names).
 * Strings without a four-digit year are refused: `new Date('12')` would happily
 * invent the year 2001.
 */
export function isoOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!/\d{4}/.test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function requireIso(context: string, value: unknown): string {
  const iso = isoOrNull(value);
  if (iso === null) throw new AdapterError(`${context}: missing or unparseable date ${JSON.stringify(value ?? null)}`, { kind: 'missing or unparseable date' });
  return iso;
}

/** Unix epoch seconds (number or numeric string, as AWS sends them) → ISO, or null. */
export function epochSecondsToIso(value: unknown): string | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  const date = new Date(n * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** First non-null candidate. */
export function firstIso(...candidates: (string | null | undefined)[]): string | null {
  for (const c of candidates) if (c) return c;
  return null;
}

/** ISO strings of one format compare correctly as strings; null entries are skipped. */
export function latestIso(values: (string | null | undefined)[]): string | null {
  let best: string | null = null;
  for (const v of values) if (v && (best === null || v > best)) best = v;
  return best;
}

export function earliestIso(values: (string | null | undefined)[]): string | null {
  let best: string | null = null;
  for (const v of values) if (v && (best === null || v < best)) best = v;
  return best;
}

export function addMinutes(iso: string, minutes: number): string {
  return new Date(new Date(iso).getTime() + minutes * 60_000).toISOString();
}

/**
 * Numeric UTC offset at the end of an RFC 822 / ISO date string, in minutes
 * (e.g. -0700 → -420). A bare Z/GMT is not an offset a page chose, so it gives null.
 */
export function trailingOffsetMinutes(raw: string | null | undefined): number | null {
  const m = /\d\s*([+-])(\d{2}):?(\d{2})\s*$/.exec(raw?.trim() ?? '');
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/** Common zone abbreviations seen on status pages; used only when nothing better is known. */
export const ZONE_OFFSETS_MINUTES: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  UT: 0,
  PST: -480,
  PDT: -420,
  MST: -420,
  MDT: -360,
  CST: -360,
  CDT: -300,
  EST: -300,
  EDT: -240,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  BST: 60,
  IST: 330,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  WET: 0,
  WEST: 60,
  JST: 540,
  KST: 540,
  SGT: 480,
  HKT: 480,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

export const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function monthIndex(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase());
}

const HALF_YEAR_MS = 183 * 24 * 3600 * 1000;

/**
 * A wall-clock time printed without a year ("Dec 29, 12:20") resolved against a
 * reference instant known to be close to it (the feed entry's own date): the year
 * that puts it within half a year of the reference wins.
 */
export function wallClockToIso(
  parts: { month: number; day: number; hour: number; minute: number; year?: number },
  offsetMinutes: number,
  referenceIso: string,
): string {
  const ref = new Date(referenceIso).getTime();
  const at = (year: number) => Date.UTC(year, parts.month, parts.day, parts.hour, parts.minute) - offsetMinutes * 60_000;
  let year = parts.year ?? new Date(ref).getUTCFullYear();
  if (parts.year === undefined) {
    if (at(year) - ref > HALF_YEAR_MS) year -= 1;
    else if (ref - at(year) > HALF_YEAR_MS) year += 1;
  }
  return new Date(at(year)).toISOString();
}
