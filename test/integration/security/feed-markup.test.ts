import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { emit, incident as alertIncident } from '../../helpers/alerts.ts';
import { incident } from '../../helpers/records.ts';
import { seedDashboard } from '../../helpers/seed.ts';
import { createUser, send } from '../../helpers/users.ts';

// Vendor text in feeds is text, never markup (docs/security.md, "Atom feeds"): Atom entries
// declared vendor titles and summaries `type="html"` around the raw title, so a status page
// titling an incident `<img src=x onerror=…>` ran markup in every Atom reader. Public and
// personal feeds, Atom and RSS, parsed as XML: what a reader shows for each entry's title
// and summary (by its declared type) is the vendor's text, with no element in it.

const HOSTILE = 'Outage <img src=x onerror=alert(document.cookie)> & <b>bold</b>';
const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'item' || name === 'entry' || name === 'link' });

/** What an Atom reader shows for a text construct (RFC 4287 §3.1): text as is, html decoded once, then as markup. */
function shownAtom(el: unknown): { shown: string; markup: boolean } {
  const node = typeof el === 'object' && el !== null ? (el as Record<string, string>) : { '#text': String(el) };
  const type = node['@_type'] ?? 'text';
  const raw = String(node['#text'] ?? '');
  if (type === 'text') return { shown: raw, markup: false };
  assert.equal(type, 'html');
  // Inside type="html" any '<' is an element; entity-escaped text decodes to the text.
  const markup = raw.includes('<');
  const shown = raw
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return { shown, markup };
}

function entries(body: string) {
  assert.equal(XMLValidator.validate(body), true, 'well-formed XML');
  return xml.parse(body).feed.entry as Record<string, unknown>[];
}

describe('vendor text in Atom and RSS feeds', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { PUBLIC_URL: 'https://status.example.com', DELIVER: 'off' } });
    await seedDashboard(t.store);
    await t.repos.incidents.upsert(
      incident('github', 'hostile', { title: HOSTILE, updates: [{ status: 'investigating', body: HOSTILE, createdAt: new Date().toISOString() }] }),
      'f',
    );
  });
  after(async () => t?.close());

  test('public Atom feed: the hostile title and summary are text', async () => {
    const body = await (await fetch(`${t.url}/api/v1/feeds/vendors/github.atom`)).text();
    const entry = entries(body).find((e) => shownAtom(e.title).shown.includes('onerror'));
    assert.ok(entry, 'the hostile incident is in the feed');
    for (const field of ['title', 'summary']) {
      const { shown, markup } = shownAtom(entry[field]);
      assert.equal(markup, false, `${field} holds no markup`);
      assert.ok(shown.includes(HOSTILE), `${field} shows the vendor's text: ${shown}`);
    }
  });

  test('public RSS feed: the title is the text (as before)', async () => {
    const body = await (await fetch(`${t.url}/api/v1/feeds/vendors/github.rss`)).text();
    assert.equal(XMLValidator.validate(body), true);
    const items = xml.parse(body).rss.channel.item as { title: string }[];
    assert.ok(items.some((i) => String(i.title).includes(HOSTILE)));
  });

  test('personal Atom feed: the hostile title is text', async () => {
    const u = await createUser(t, 'pro');
    assert.equal((await send(`${t.api}/watchlist/github`, 'POST', u.headers)).status, 200);
    const saved = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { rss: { enabled: true } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const path: string = saved.body.preferences.rss.feed_url;
    await emit(t, 'incident.created', alertIncident('github', { title: HOSTILE }));
    await t.app.alerts.runOnce();
    const res = await fetch(`${t.url}${path.replace(/\.rss$/, '.atom')}`);
    assert.equal(res.status, 200);
    const entry = entries(await res.text()).find((e) => shownAtom(e.title).shown.includes('onerror'));
    assert.ok(entry, 'the alert is in the feed');
    for (const field of ['title', 'summary']) {
      const { shown, markup } = shownAtom(entry[field]);
      assert.equal(markup, false, `${field} holds no markup`);
      assert.ok(shown.includes('onerror=alert(document.cookie)'), `${field} shows the vendor's text`);
    }
  });
});
