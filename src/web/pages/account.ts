import { DEFAULT_PLAN_POLICIES, planAtLeast, type Plan, USER_PLANS } from '../../domain/plans.ts';
import type { AccountsService } from '../../services/access/accounts-service.ts';
import type { ApiKeyRow } from '../../services/access/keys-service.ts';
import { html, type Html } from '../html.ts';
import type { Page, PageContext } from '../layout.ts';
import { humanize, time } from '../views/format.ts';

// The account area: plan and today's usage, API keys, and (when the per-user
// services are present) watchlist, notification preferences and the personal
// feed. Forms are handled by account.js through the same API a script would use.

type AccountSummary = Awaited<ReturnType<AccountsService['summary']>>;

export interface AccountPageData {
  summary: AccountSummary;
  keys: ApiKeyRow[];
  /** Lowest plan that may create keys (API_KEY_MIN_PLAN). */
  keyMinPlan: Plan;
  apiBase: string;
  welcome: boolean;
  extraSections: Html[];
}

const fmt = (n: number) => n.toLocaleString('en-US');
const windowText = (days: number | null) => (days === null ? 'Unlimited' : `${days} days`);

function planSection(d: AccountPageData): Html {
  const s = d.summary;
  const plan = s.account.plan;
  const l = s.limits;
  const usedToday = s.usage.total;
  const resetsH = Math.floor(s.usage.resetsInSeconds / 3600);
  const resetsM = Math.floor((s.usage.resetsInSeconds % 3600) / 60);
  return html`<section class="panel" id="plan" aria-labelledby="plan-title">
    <h2 id="plan-title">Plan and usage</h2>
    <p>Your plan: <strong data-plan>${humanize(plan)}</strong></p>
    <ul class="usage">
      <li>
        <span id="usage-day-label">Requests today: <strong data-usage-today>${fmt(usedToday)}</strong> of ${fmt(l.perDay)} for your account</span>
        <meter class="meter" min="0" max="${l.perDay}" value="${Math.min(usedToday, l.perDay)}" aria-labelledby="usage-day-label"></meter>
        <span class="muted">Counts reset in ${resetsH} h ${resetsM} min (midnight UTC).</span>
      </li>
      <li>Per minute: ${fmt(l.perMinute)} requests (all your keys and this website together; this minute: ${fmt(s.usage.usedThisMinute)})</li>
      <li>API keys: up to ${l.maxKeys}</li>
      <li>History window: ${windowText(l.windowDays)}</li>
      <li>Watchlist: ${l.watchlistLimit === null ? 'unlimited vendors' : `up to ${l.watchlistLimit} vendors`}</li>
      <li>Compliance data: ${l.compliance ? 'included' : 'Standard plan and above'}</li>
      <li>Concurrent live streams: ${l.concurrentStreams}</li>
    </ul>
    <details>
      <summary>Compare plans</summary>
      <div class="table-scroll" role="region" aria-label="Plans" tabindex="0"><table>
        <thead><tr><th scope="col">Plan</th><th scope="col">Per minute</th><th scope="col">Per day</th><th scope="col">History</th><th scope="col">Watchlist</th><th scope="col">Compliance</th></tr></thead>
        <tbody>${USER_PLANS.filter((p) => p !== 'vip').map((p) => {
          const pol = DEFAULT_PLAN_POLICIES[p];
          return html`<tr${p === plan ? html` aria-current="true"` : ''}><th scope="row">${humanize(p)}${p === plan ? ' (yours)' : ''}</th><td>${fmt(pol.perMinute)}</td><td>${fmt(pol.perDay)}</td><td>${windowText(pol.windowDays)}</td><td>${pol.watchlistLimit === null ? 'Unlimited' : pol.watchlistLimit}</td><td>${pol.compliance ? 'Yes' : 'No'}</td></tr>`;
        })}</tbody>
      </table></div>
      <p class="muted">Plans are assigned by the operator of this service.</p>
    </details>
  </section>`;
}

export function keysTable(keys: ApiKeyRow[], now: Date): Html {
  if (!keys.length) return html`<p class="empty" data-live-id="keys">You have no API keys yet.</p>`;
  return html`<div class="table-scroll" data-live-id="keys" role="region" aria-label="Your API keys" tabindex="0"><table class="keys">
    <caption class="visually-hidden">Your API keys</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${keys.map(
      (k) => html`<tr data-key-id="${k.id}">
        <th scope="row">${k.name}</th>
        <td><code>${k.prefix}…</code></td>
        <td>${time(k.createdAt)}</td>
        <td>${k.lastUsedAt ? time(k.lastUsedAt, now) : 'Never'}</td>
        <td><button type="button" class="button button--danger button--small" data-revoke-key="${k.id}" data-key-name="${k.name}">Revoke<span class="visually-hidden"> ${k.name}</span></button></td>
      </tr>`,
    )}</tbody>
  </table></div>`;
}

function keysSection(d: AccountPageData, ctx: PageContext): Html {
  const allowed = planAtLeast(d.summary.account.plan, d.keyMinPlan);
  return html`<section class="panel" id="keys" aria-labelledby="keys-title">
    <h2 id="keys-title">API keys</h2>
    <p>Send a key in the <code>X-API-Key</code> header (or <code>Authorization: Bearer</code>) to call the <a href="/docs">API</a> from scripts and services.</p>
    ${
      allowed
        ? html`<form class="inline-create" method="post" action="${d.apiBase}/account/keys" data-create-key novalidate>
      <div class="field">
        <label for="key-name">Key name</label>
        <input id="key-name" name="name" type="text" maxlength="100" placeholder="e.g. CI pipeline" aria-describedby="key-name-hint">
        <p class="field__hint" id="key-name-hint">A label to recognise the key later.</p>
      </div>
      <button type="submit" class="button">Create key</button>
      <p data-create-key-status role="status" hidden></p>
    </form>`
        : html`<p class="notice">Creating API keys needs the ${humanize(d.keyMinPlan)} plan or higher.</p>`
    }
    <div class="secret-panel" data-new-key hidden tabindex="-1" aria-labelledby="new-key-title">
      <h3 id="new-key-title">Your new key</h3>
      <div class="secret-box">
        <code id="new-key-secret" data-new-key-secret></code>
        <button type="button" class="button button--small" data-copy="#new-key-secret">Copy</button>
      </div>
      <p><strong>Copy it now: it is shown only this once.</strong> We store only a hash of it.</p>
      <p>Try it:</p>
      <pre class="example"><code id="new-key-example" data-new-key-example></code></pre>
      <button type="button" class="button button--small button--secondary" data-copy="#new-key-example">Copy command</button>
    </div>
    <h3 class="subhead">Active keys</h3>
    <div data-keys-list>${keysTable(d.keys, ctx.now)}</div>
  </section>`;
}

export function accountPage(d: AccountPageData, ctx: PageContext): Page {
  return {
    title: 'Account',
    scripts: ['js/account.js'],
    main: html`<h1 class="page-title">Your account</h1>
    <noscript><p class="notice notice--warn">The forms of the account area need JavaScript; everything else here is readable without it.</p></noscript>
    <p>Signed in as <strong data-account-email>${d.summary.account.email}</strong> · member since ${time(d.summary.account.createdAt)}</p>
    ${d.welcome ? html`<p class="notice notice--ok" role="status">Your account is ready. Create an API key below to use the API from your own tools.</p>` : ''}
    <nav class="section-nav" aria-label="Account sections"><ul>
      <li><a href="#keys">API keys</a></li><li><a href="#plan">Plan and usage</a></li>${d.extraSections.length ? html`<li><a href="#watchlist">Watchlist</a></li><li><a href="#boards">Public boards</a></li><li><a href="#notifications">Notifications</a></li><li><a href="#feed">Personal feed</a></li>` : ''}
    </ul></nav>
    <div class="account-grid">
      ${keysSection(d, ctx)}
      ${planSection(d)}
    </div>
    ${d.extraSections}`,
  };
}
