import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import ICAL from 'ical.js';
import { createRepositories } from '../../src/services/index.ts';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { maintenance } from '../helpers/records.ts';
import { seedDashboard } from '../helpers/seed.ts';
import { createUser, send } from '../helpers/users.ts';

// Public vendor feeds (docs/integrations.md): RSS 2.0 and Atom 1.0 checked for
// well-formedness and the elements their specs require, iCalendar parsed by ical.js
// and checked for RFC 5545's CRLF, 75-octet folding and required properties; the
// combined feed, the watchlist calendar at the personal feed's token URL, and 404s.

/** Text of an element that may carry attributes (`<title type="html">`). */
const textOf = (v: unknown) => (typeof v === 'object' && v !== null ? String((v as { '#text'?: unknown })['#text'] ?? '') : String(v));
const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'item' || name === 'entry' || name === 'link' });
const LONG_TITLE = 'Wartungsarbeiten an der Datenbank – Replikation, Failover; Backslash \\ und Umlaute äöü ✓ '.repeat(2).trim();

async function text(res: Response, type: string) {
  const body = await res.text();
  assert.equal(res.status, 200, body);
  assert.equal(res.headers.get('content-type'), type);
  return body;
}

function parseXml(body: string) {
  assert.equal(XMLValidator.validate(body), true, 'well-formed XML');
  return xml.parse(body);
}

/** RFC 5545 §3.1 lexical rules, then a full parse; returns the VEVENTs. */
function parseCalendar(body: string): ICAL.Component[] {
  assert.ok(body.endsWith('\r\n'), 'the last line ends with CRLF');
  assert.ok(!/[^\r]\n/.test(body) && !/\r[^\n]/.test(body), 'every line ends with CRLF, nothing else');
  for (const line of body.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75, `folded to 75 octets: ${line}`);
  const cal = new ICAL.Component(ICAL.parse(body));
  assert.equal(cal.name, 'vcalendar');
  assert.equal(cal.getAllProperties('version').length, 1);
  assert.equal(cal.getFirstPropertyValue('version'), '2.0');
  assert.equal(cal.getAllProperties('prodid').length, 1);
  assert.equal(cal.getFirstPropertyValue('method'), null, 'no METHOD on a subscribed feed');
  const events = cal.getAllSubcomponents('vevent');
  for (const e of events) {
    for (const p of ['uid', 'dtstamp', 'dtstart']) assert.equal(e.getAllProperties(p).length, 1, `${p} once`);
    assert.ok(!(e.hasProperty('dtend') && e.hasProperty('duration')), 'never DTEND and DURATION');
    for (const p of ['dtstamp', 'dtstart']) assert.match(e.getFirstProperty(p)!.toICALString(), /:\d{8}T\d{6}Z$/, `${p} in UTC`);
  }
  return events;
}

describe('public vendor feeds', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { PUBLIC_URL: 'https://status.example.com' } });
    await seedDashboard(t.store);
    const r = createRepositories(t.store);
    await r.maintenances.upsert(
      maintenance('github', 'long', {
        title: LONG_TITLE,
        components: ['API Requests', 'Git Operations'],
        updates: [{ status: 'scheduled', body: 'Line one.\r\nLine two, with a comma; and a semicolon.\u0007', createdAt: new Date().toISOString() }],
        url: 'https://www.githubstatus.com/incidents/long',
      }),
      'f',
    );
  });
  after(async () => t.close());

  test('RSS 2.0: required channel elements, one item per incident or maintenance, self link', async () => {
    const body = await text(await fetch(`${t.url}/api/v1/feeds/vendors/github.rss`), 'application/rss+xml; charset=utf-8');
    const doc = parseXml(body);
    assert.equal(doc.rss['@_version'], '2.0');
    const ch = doc.rss.channel;
    assert.equal(ch.title, 'GitHub status history');
    assert.ok(ch.description);
    assert.ok(
      ch.link.some((l: unknown) => typeof l === 'string' && l.startsWith('https://')),
      'channel link',
    );
    const self = ch['atom:link'] ?? ch.link.find((l: { '@_rel'?: string }) => typeof l === 'object' && l['@_rel'] === 'self');
    assert.equal((Array.isArray(self) ? self[0] : self)['@_href'], 'https://status.example.com/api/v1/feeds/vendors/github.rss');
    const titles = ch.item.map((i: { title: string }) => i.title);
    assert.ok(
      titles.some((x: string) => x.startsWith('GitHub: Degraded performance for Actions and Pages (investigating, major impact)')),
      titles.join('\n'),
    );
    assert.ok(titles.some((x: string) => x.startsWith('GitHub: Scheduled database maintenance (maintenance scheduled)')));
    for (const i of ch.item) {
      assert.ok(i.title && i.guid && i.pubDate, 'title, guid, pubDate');
      assert.ok(!Number.isNaN(Date.parse(i.pubDate)));
    }
    assert.ok(!titles.some((x: string) => x.startsWith('Cloudflare')), 'only the vendor asked for');
  });

  test('Atom 1.0: feed and entries carry id, title, updated; author on the feed', async () => {
    const body = await text(await fetch(`${t.url}/api/v1/feeds/vendors/github.atom`), 'application/atom+xml; charset=utf-8');
    const feed = parseXml(body).feed;
    assert.equal(feed['@_xmlns'], 'http://www.w3.org/2005/Atom');
    assert.equal(feed.id, 'urn:vendor-status:vendors:github');
    assert.ok(feed.title && feed.updated && feed.author?.name);
    assert.ok(
      feed.link.some(
        (l: { '@_rel'?: string; '@_href'?: string }) => l['@_rel'] === 'self' && l['@_href'] === 'https://status.example.com/api/v1/feeds/vendors/github.atom',
      ),
    );
    assert.ok(feed.entry.length >= 3);
    for (const e of feed.entry) {
      assert.match(String(e.id), /^urn:vendor-status:(incident|maintenance):github:/);
      assert.ok(textOf(e.title).startsWith('GitHub: ') && !Number.isNaN(Date.parse(e.updated)));
      assert.ok(e.content || e.link.some((l: { '@_rel'?: string }) => l['@_rel'] === 'alternate'));
    }
  });

  test('iCalendar: strict RFC 5545 lexical rules, escaped text, stable UIDs', async () => {
    const body = await text(await fetch(`${t.url}/api/v1/feeds/vendors/github.ics`), 'text/calendar; charset=utf-8');
    const events = parseCalendar(body);
    const summaries = events.map((e) => e.getFirstPropertyValue('summary'));
    assert.ok(summaries.includes('GitHub: Scheduled database maintenance'));
    const long = events.find((e) => e.getFirstPropertyValue('summary') === `GitHub: ${LONG_TITLE}`);
    assert.ok(long, 'a long UTF-8 title survives folding and escaping');
    assert.equal(long.getFirstPropertyValue('uid'), 'maintenance-github-github:long@vendor-status-api');
    assert.match(
      String(long.getFirstPropertyValue('description')),
      /Components: API Requests, Git Operations\n\nLine one\.\nLine two, with a comma; and a semicolon\./,
    );
    assert.equal(long.getFirstPropertyValue('url'), 'https://www.githubstatus.com/incidents/long');
    const start = long.getFirstPropertyValue('dtstart') as ICAL.Time;
    const end = long.getFirstPropertyValue('dtend') as ICAL.Time;
    assert.equal(end.toUnixTime() - start.toUnixTime(), 3600);
    // The same window has the same UID in the combined calendar.
    const combined = parseCalendar(await text(await fetch(`${t.url}/api/v1/feeds/vendors.ics?vendor=stripe,github`), 'text/calendar; charset=utf-8'));
    const uids = combined.map((e) => e.getFirstPropertyValue('uid'));
    assert.ok(uids.includes('maintenance-github-github:long@vendor-status-api'));
    assert.ok(uids.includes('maintenance-stripe-stripe:now@vendor-status-api'));
  });

  test('combined feed of a list of vendors; cached; unknown vendors and too many: 4xx error body', async () => {
    const a = await fetch(`${t.url}/api/v1/feeds/vendors.rss?vendor=stripe,github`);
    const doc = parseXml(await text(a, 'application/rss+xml; charset=utf-8'));
    const titles: string[] = doc.rss.channel.item.map((i: { title: string }) => i.title);
    assert.ok(titles.some((x) => x.startsWith('GitHub:')) && titles.some((x) => x.startsWith('Stripe:')));
    const b = await fetch(`${t.url}/api/v1/feeds/vendors.rss?vendor=github,stripe`);
    assert.equal(b.headers.get('x-cache'), 'HIT', 'the list is canonical in the cache key');
    await b.arrayBuffer();
    const atom = parseXml(await text(await fetch(`${t.url}/api/v1/feeds/vendors.atom?vendor=github,cloudflare`), 'application/atom+xml; charset=utf-8'));
    assert.ok(atom.feed.entry.some((e: { title: unknown }) => textOf(e.title).startsWith('Cloudflare:')));

    for (const path of [
      '/api/v1/feeds/vendors/nope.rss',
      '/api/v1/feeds/vendors/nope.atom',
      '/api/v1/feeds/vendors/nope.ics',
      '/api/v1/feeds/vendors.ics?vendor=github,nope',
    ]) {
      const r = await getJson(`${t.url}${path}`);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error, 'not_found');
    }
    const many = Array.from({ length: 51 }, (_, i) => `v${i}`).join(',');
    const tooMany = await getJson(`${t.url}/api/v1/feeds/vendors.rss?vendor=${many}`);
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.parameter, 'vendor');
    const missing = await getJson(`${t.url}/api/v1/feeds/vendors.rss`);
    assert.equal(missing.status, 400);
  });

  test("the watchlist calendar at the personal feed's token URL, without muted vendors", async () => {
    const u = await createUser(t, 'pro');
    const prefs = `${t.api}/notification-preferences`;
    await send(`${t.api}/watchlist`, 'PUT', u.headers, { vendors: ['github', 'stripe', 'cloudflare'] });
    const on = await send(prefs, 'PUT', u.headers, { rss: { enabled: true }, muted_vendors: ['stripe'] });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const rssUrl: string = on.body.preferences.rss.feed_url;
    const icsUrl = `${t.url}${rssUrl.replace(/\.rss$/, '.ics')}`;
    const res = await fetch(icsUrl);
    const events = parseCalendar(await text(res, 'text/calendar; charset=utf-8'));
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    const uids = events.map((e) => String(e.getFirstPropertyValue('uid')));
    assert.ok(uids.some((x) => x.startsWith('maintenance-github-')));
    assert.ok(!uids.some((x) => x.startsWith('maintenance-stripe-')), 'muted vendor left out');
    const off = await send(prefs, 'PUT', u.headers, { rss: { enabled: false } });
    assert.equal(off.status, 200);
    assert.equal((await fetch(icsUrl)).status, 404);
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${'x'.repeat(43)}.ics`)).status, 404);
  });
});
