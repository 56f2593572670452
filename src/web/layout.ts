import type { Plan } from '../domain/plans.ts';
import type { Viewer } from '../services/context.ts';
import type { Assets } from './assets.ts';
import { html, type Html } from './html.ts';

/** What every page knows about the request. */
export interface PageContext {
  now: Date;
  viewer: Viewer;
  /** Set when the request carries a logged-in web session. */
  account: { plan: Plan } | null;
  /** Token forms and fetch calls send back (see docs/web.md, CSRF). */
  csrfToken: string;
  assets: Assets;
  /** Path of the request, to mark the current navigation entry. */
  path: string;
  /** DEMO=true: every page says its data is simulated (docs/web.md "Demo mode"). */
  demo?: boolean;
}

export interface Page {
  title: string;
  main: Html;
  /** ES modules (asset names) this page loads. */
  scripts?: string[];
  status?: number;
  /** Attributes of <main> read by the live module. */
  mainAttrs?: Html;
  description?: string;
}

const navLink = (ctx: PageContext, href: string, label: string) => html`<a href="${href}"${ctx.path === href ? html` aria-current="page"` : ''}>${label}</a>`;

export const demoBanner = html`<aside class="demo-banner" aria-label="Demo mode" data-demo-banner><p><strong>Demo data.</strong> This server runs in demo mode: every vendor, incident and status here is simulated and made up, not the vendors' real state.</p></aside>
`;

export function layout(ctx: PageContext, page: Page): Html {
  const scripts = ['js/ui.js', ...(page.scripts ?? [])];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Vendor Status</title>
<meta name="description" content="${page.description ?? 'Live status of infrastructure vendors: incidents, maintenance, advisories and uptime in one place.'}">
<meta name="csrf-token" content="${ctx.csrfToken}">
<link rel="stylesheet" href="${ctx.assets.url('css/app.css')}">
<link rel="icon" href="${ctx.assets.url('favicon.svg')}" type="image/svg+xml">
${scripts.map((s) => html`<script type="module" src="${ctx.assets.url(s)}"></script>\n`)}</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
${ctx.demo ? demoBanner : ''}<header class="site-header">
  <nav class="site-nav" aria-label="Main">
    <a class="brand" href="/"><img src="${ctx.assets.url('favicon.svg')}" alt="" width="24" height="24"> Vendor Status</a>
    <ul class="site-nav__links">
      <li>${navLink(ctx, '/', 'Overview')}</li>
      <li>${navLink(ctx, '/search', 'Search')}</li>
      <li>${navLink(ctx, '/compare', 'Compare')}</li>
      <li><a href="/docs">API docs</a></li>
      ${
        ctx.account
          ? html`<li>${navLink(ctx, '/account', 'Account')}</li>
      <li>${navLink(ctx, '/team', 'Team')}</li>
      <li><form method="post" action="/api/v1/auth/logout" class="inline-form" data-logout><input type="hidden" name="_csrf" value="${ctx.csrfToken}"><button type="submit" class="link-button">Log out</button></form></li>`
          : html`<li>${navLink(ctx, '/login', 'Log in')}</li>
      <li><a class="button button--small" href="/signup"${ctx.path === '/signup' ? html` aria-current="page"` : ''}>Sign up</a></li>`
      }
    </ul>
  </nav>
</header>
<main id="main" tabindex="-1"${page.mainAttrs ?? ''}>
${page.main}
</main>
<footer class="site-footer">
  <p>Data comes from each vendor's public status page, normalised by this service. Times are in UTC.
  The same data is available through the <a href="/docs">REST API</a>.</p>
</footer>
</body>
</html>
`;
}
