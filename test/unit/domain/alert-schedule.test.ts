import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { digestPeriod } from '../../../src/domain/digests.ts';
import { quietUntil } from '../../../src/domain/quiet-hours.ts';
import { dueReminder, leadLabel, parseLeadTime } from '../../../src/domain/reminders.ts';
import { isTimeZone, localTime, zonedInstant } from '../../../src/domain/time-zones.ts';

// Digest periods, quiet hours and reminder due times in the user's time zone
// (docs/alerts.md "Digests", "Quiet hours", "Maintenance reminders").

const iso = (d: Date) => d.toISOString();

describe('time zones', () => {
  test('IANA names are accepted, anything else refused', () => {
    for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu']) assert.ok(isTimeZone(tz), tz);
    for (const tz of ['', 'Mars/Olympus', 'Europe/Berlin; DROP', '+02:00x', 'a'.repeat(80)]) assert.ok(!isTimeZone(tz), tz);
  });

  test('wall-clock times map to instants across a DST change', () => {
    // Berlin: 2026-03-29 02:00 CET → 03:00 CEST.
    assert.equal(iso(zonedInstant({ year: 2026, month: 3, day: 28, hour: 8, minute: 0 }, 'Europe/Berlin')), '2026-03-28T07:00:00.000Z');
    assert.equal(iso(zonedInstant({ year: 2026, month: 3, day: 29, hour: 8, minute: 0 }, 'Europe/Berlin')), '2026-03-29T06:00:00.000Z');
    assert.deepEqual(localTime(new Date('2026-07-01T12:30:00Z'), 'America/New_York').hour, 8);
  });
});

describe('digest periods', () => {
  test('hourly follows the local hour, also in zones offset by 45 minutes', () => {
    const p = digestPeriod(new Date('2026-05-10T10:20:00Z'), 'Asia/Kathmandu', 'hourly'); // UTC+5:45 → 16:05 local
    assert.equal(iso(p.start), '2026-05-10T10:15:00.000Z');
    assert.equal(iso(p.end), '2026-05-10T11:15:00.000Z');
    const u = digestPeriod(new Date('2026-05-10T10:20:07.500Z'), 'UTC', 'hourly');
    assert.deepEqual([iso(u.start), iso(u.end)], ['2026-05-10T10:00:00.000Z', '2026-05-10T11:00:00.000Z']);
  });

  test('daily runs from 08:00 local to 08:00 local the next day; the short DST day is 23 hours', () => {
    const before8 = digestPeriod(new Date('2026-05-10T05:00:00Z'), 'Europe/Berlin', 'daily'); // 07:00 local
    assert.deepEqual([iso(before8.start), iso(before8.end)], ['2026-05-09T06:00:00.000Z', '2026-05-10T06:00:00.000Z']);
    const after8 = digestPeriod(new Date('2026-05-10T06:00:00Z'), 'Europe/Berlin', 'daily'); // 08:00 local: a new period
    assert.equal(iso(after8.start), '2026-05-10T06:00:00.000Z');
    const dst = digestPeriod(new Date('2026-03-28T12:00:00Z'), 'Europe/Berlin', 'daily');
    assert.equal(dst.end.getTime() - dst.start.getTime(), 23 * 3_600_000);
    const ny = digestPeriod(new Date('2026-01-15T14:00:00Z'), 'America/New_York', 'daily');
    assert.equal(iso(ny.start), '2026-01-15T13:00:00.000Z');
  });
});

describe('quiet hours', () => {
  const q = { enabled: true, start: '22:00', end: '07:00' };
  test('over midnight: held until 07:00 local, the right day', () => {
    // Berlin summer (UTC+2): 23:30 local → until 07:00 next day = 05:00Z.
    assert.equal(iso(quietUntil(new Date('2026-06-01T21:30:00Z'), 'Europe/Berlin', q)!), '2026-06-02T05:00:00.000Z');
    // 03:00 local → until 07:00 the same day.
    assert.equal(iso(quietUntil(new Date('2026-06-02T01:00:00Z'), 'Europe/Berlin', q)!), '2026-06-02T05:00:00.000Z');
    assert.equal(quietUntil(new Date('2026-06-02T05:00:00Z'), 'Europe/Berlin', q), null, 'the end itself is outside');
    assert.equal(quietUntil(new Date('2026-06-02T12:00:00Z'), 'Europe/Berlin', q), null);
  });
  test('a range within one day, off, and an empty range', () => {
    const day = { enabled: true, start: '12:00', end: '13:30' };
    assert.equal(iso(quietUntil(new Date('2026-06-02T16:10:00Z'), 'America/New_York', day)!), '2026-06-02T17:30:00.000Z');
    assert.equal(quietUntil(new Date('2026-06-02T16:10:00Z'), 'America/New_York', { ...day, enabled: false }), null);
    assert.equal(quietUntil(new Date('2026-06-02T16:10:00Z'), 'UTC', { enabled: true, start: '10:00', end: '10:00' }), null);
  });
});

describe('maintenance reminders', () => {
  const H = 3_600_000;
  test('lead times parse, with bounds', () => {
    assert.equal(parseLeadTime('24h'), 24 * H);
    assert.equal(parseLeadTime('90m'), 90 * 60_000);
    assert.equal(parseLeadTime('14d'), 14 * 24 * H);
    for (const bad of ['0h', '15d', '1w', 'h', '-1h', '1.5h']) assert.equal(parseLeadTime(bad), null, bad);
    assert.equal(leadLabel(24 * H), '24h');
    assert.equal(leadLabel(48 * H), '2d');
    assert.equal(leadLabel(H), '1h');
  });
  test('each lead time is due from its time until the next shorter one is', () => {
    const start = Date.parse('2026-06-10T12:00:00Z');
    const leads = [24 * H, H];
    assert.equal(dueReminder(start, leads, start - 25 * H), null);
    assert.equal(dueReminder(start, leads, start - 24 * H), 24 * H);
    assert.equal(dueReminder(start, leads, start - 2 * H), 24 * H, 'late but before the next: still due');
    assert.equal(dueReminder(start, leads, start - H), H);
    assert.equal(dueReminder(start, leads, start - 30 * 60_000), H, 'announced 30 min ahead: only the 1 h reminder');
    assert.equal(dueReminder(start, leads, start), null, 'started: no reminder');
  });
});
