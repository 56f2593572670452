import type { PublicBoard } from '../../services/feeds/board-service.ts';
import { summarizeOverview } from '../../services/records/overview-service.ts';
import type { Assets } from '../assets.ts';
import { html, type Html } from '../html.ts';
import { demoBanner } from '../layout.ts';
import { plural, time, toTheMinute } from '../views/format.ts';
import { incidentArticle } from '../views/records.ts';
import { vendorCard } from './overview.ts';

// A public status board (docs/boards.md): a page of its own, not the site layout,
// because it is shown to anyone with the URL and inside other sites' frames. It
// carries the board's title and its vendors' status and nothing of the account that
// made it or of the visitor (no navigation, no session state, no CSRF token).

export function boardMain(b: PublicBoard, now: Date): Html {
  const s = summarizeOverview(b.vendors);
  const incidents = b.vendors.flatMap((v) => v.activeIncidents);
  return html`<h1 class="page-title">${b.title}</h1>
  <div class="summary summary--${s.tone}" data-live-id="summary">
    <p class="summary__headline">${s.headline}</p>
    <p class="summary__detail">${plural(incidents.length, 'active incident')} · updated ${time(toTheMinute(b.generatedAt))}</p>
  </div>
  <p class="live-status" data-live-status role="status" aria-live="polite"></p>
  <section aria-labelledby="board-incidents" class="panel" data-live-id="problems">
    <h2 id="board-incidents">Active incidents <span class="count">${incidents.length}</span></h2>
    ${
      incidents.length
        ? html`<div class="record-list">${incidents.map((i) => incidentArticle(i, now, { headingLevel: 3, showVendor: true, collapsed: true, ourServices: b.affected?.get(i.id) }))}</div>`
        : html`<p class="empty">No vendor on this board reports an incident right now.</p>`
    }
  </section>
  <section aria-labelledby="board-vendors" class="panel panel--plain">
    <h2 id="board-vendors">Vendors</h2>
    <ul class="vendor-grid">
      ${b.vendors.map((v) => vendorCard(v, false, false))}
    </ul>
  </section>`;
}

/** `demo`: the server runs on simulated data, which a board says as every page does (docs/boards.md). */
export function boardDocument(b: PublicBoard, token: string, now: Date, assets: Assets, demo = false): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${b.title} · Vendor Status</title>
<link rel="stylesheet" href="${assets.url('css/app.css')}">
<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
<script type="module" src="${assets.url('js/live.js')}"></script>
</head>
<body>
${demo ? demoBanner : ''}<main id="main" class="board" data-live-partial="/b/${token}/partial" data-live-stream="/b/${token}/stream">
${boardMain(b, now)}
</main>
<footer class="site-footer">
  <p>Status read from each vendor's public status page by <a href="/">Vendor Status</a>. Times are in UTC.</p>
</footer>
</body>
</html>
`;
}
