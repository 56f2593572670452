import type { SearchQuery, SearchResult } from '../../services/records/search-service.ts';
import { html, type Html } from '../html.ts';
import type { Page, PageContext } from '../layout.ts';
import { categoryLabel, IMPACT_LABEL, plural } from '../views/format.ts';
import { incidentArticle } from '../views/records.ts';

// Search across vendors and incidents (docs/web.md, "Search"): a GET form, so it
// works without JavaScript and a search can be bookmarked or shared.

export function parseSearchQuery(query: Record<string, unknown>): SearchQuery {
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 100).trim() : '');
  const vendor = str(query.vendor);
  return {
    text: str(query.q),
    vendor: vendor || undefined,
    impact: str(query.impact) || undefined,
    component: str(query.component) || undefined,
  };
}

function form(q: SearchQuery, impacts: readonly string[], vendors: { slug: string; name: string }[]): Html {
  return html`<form class="filters" method="get" action="/search" role="search">
    <div class="field">
      <label for="search-q">Search vendors and incidents</label>
      <input id="search-q" name="q" type="search" value="${q.text}" maxlength="100" autocomplete="off" placeholder="e.g. GitHub, API, login" aria-describedby="search-q-hint">
      <p class="field__hint" id="search-q-hint">Matches vendor names, incident titles and affected components.</p>
    </div>
    <div class="field">
      <label for="search-vendor">Vendor</label>
      <select id="search-vendor" name="vendor"><option value="">All vendors</option>${vendors.map((v) => html`<option value="${v.slug}"${q.vendor === v.slug ? html` selected` : ''}>${v.name}</option>`)}</select>
    </div>
    <div class="field">
      <label for="search-impact">Impact</label>
      <select id="search-impact" name="impact"><option value="">Any impact</option>${impacts.map((i) => html`<option value="${i}"${q.impact === i ? html` selected` : ''}>${IMPACT_LABEL[i as keyof typeof IMPACT_LABEL] ?? i}</option>`)}</select>
    </div>
    <div class="field">
      <label for="search-component">Component</label>
      <input id="search-component" name="component" type="text" value="${q.component ?? ''}" maxlength="100" autocomplete="off" aria-describedby="search-component-hint">
      <p class="field__hint" id="search-component-hint">The exact component name, as on the vendor page.</p>
    </div>
    <button type="submit" class="button">Search</button>
  </form>`;
}

export function searchPage(q: SearchQuery, r: SearchResult, ctx: PageContext, impacts: readonly string[], vendors: { slug: string; name: string }[]): Page {
  const asked = !!(q.text || q.vendor || q.impact || q.component);
  const windowText = r.windowDays === null ? 'on record' : `of the last ${r.windowDays} days (your plan's window)`;
  const main = html`<h1 class="page-title">Search</h1>
  ${form(q, impacts, vendors)}
  ${
    !asked
      ? html`<p class="muted">Type a vendor, an incident title or a component, or choose a filter.</p>`
      : html`<p class="filter-result" role="status">${plural(r.vendors.length, 'vendor')} and ${plural(r.incidentTotal, 'incident')} ${windowText}${r.incidentTotal > r.incidents.length ? `; the ${r.incidents.length} most recent are shown` : ''}.</p>
  ${
    r.vendors.length
      ? html`<section aria-labelledby="found-vendors" class="panel">
    <h2 id="found-vendors">Vendors</h2>
    <ul class="result-list">${r.vendors.map((v) => html`<li><a href="/vendors/${v.slug}">${v.name}</a> <span class="muted">${categoryLabel(v.category)}</span></li>`)}</ul>
  </section>`
      : ''
  }
  <section aria-labelledby="found-incidents" class="panel">
    <h2 id="found-incidents">Incidents</h2>
    ${
      r.incidents.length
        ? html`<div class="record-list">${r.incidents.map((i) => incidentArticle(i, ctx.now, { headingLevel: 3, showVendor: true, collapsed: true }))}</div>`
        : html`<p class="empty">No incident matches ${windowText}.</p>`
    }
  </section>`
  }`;
  return { title: q.text ? `Search: ${q.text}` : 'Search', main, description: 'Search vendors and incidents by name, title or component.' };
}
