import type { VendorTransparency } from '../../domain/early-warning-transparency.ts';
import { TRANSPARENCY_DAYS, type TransparencyOrder } from '../../domain/early-warning-transparency.ts';
import type { SignalDetailView } from '../../services/early-warning/early-warning-service.ts';
import { html, type Html } from '../html.ts';
import type { Page } from '../layout.ts';
import { humanize, time } from '../views/format.ts';
import { rankingRow } from '../views/transparency.ts';

// The team's early warning (docs/early-warning.md; docs/web.md "Team"): its signals, open
// and recent, with evidence, confidence and state; "dismiss" for editors; "we see
// problems with X" for every member; the inbound signing secret for admins (made or
// replaced here, shown once, masked after). And the ranking of vendors by how far their
// pages lag the team's signals. Plain forms that work without JavaScript.

export interface EarlyWarningPageData {
  orgName: string;
  signals: SignalDetailView[];
  /** Vendor slugs and names offered by the report field. */
  vendors: { slug: string; name: string }[];
  canEdit: boolean;
  /** The signing secret's state; null below admin (the section is not shown). */
  secret: { configured: boolean; createdAt: string | null; lastFour: string | null } | null;
  csrf: string;
  now: Date;
  notice?: { kind: 'ok' | 'error'; text: string; secret?: string };
}

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;
const STATE_WORDS: Record<string, string> = {
  suspected: 'Suspected by your team (not confirmed by the vendor)',
  confirmed: 'Confirmed by the vendor',
  cleared: 'Cleared (recovered, no incident posted)',
  dismissed: 'Dismissed as a false alarm',
};
const STATE_TAG: Record<string, string> = {
  suspected: 'tag--impact-major',
  confirmed: 'tag--status-investigating',
  cleared: 'tag--status-resolved',
  dismissed: 'tag--impact-none',
};

function signalArticle(s: SignalDetailView, d: EarlyWarningPageData, names: Map<string, string>): Html {
  const name = names.get(s.vendor) ?? s.vendor;
  const scope = [...s.components, ...s.regions];
  const open = s.state === 'suspected' || s.state === 'confirmed';
  return html`<article class="record signal" data-signal="${s.id}" data-signal-state="${s.state}" aria-labelledby="sig-${s.id}">
    <h3 class="record__title" id="sig-${s.id}"><a href="/vendors/${s.vendor}">${name}</a> <span class="tag ${STATE_TAG[s.state] ?? ''}">${STATE_WORDS[s.state] ?? s.state}</span></h3>
    <p class="record__meta">Confidence ${String(Math.round(s.confidence * 100))}% · opened ${time(s.openedAt, d.now)} · last seen ${time(s.lastObservedAt, d.now)}${s.incidentId ? html` · vendor incident <code>${s.incidentId}</code>` : ''}</p>
    ${scope.length ? html`<p class="record__components">Affects: ${scope.join(', ')}</p>` : ''}
    <details data-signal-evidence>
      <summary>Evidence (${String(s.evidence.length)}) and history (${String(s.transitions.length)})</summary>
      <ul>${s.evidence.map((o) => html`<li>${humanize(o.source)}, strength ${o.strength.toFixed(2)}, ${time(o.observedAt, d.now)}${o.summary ? html`: ${o.summary}` : ''}</li>`)}</ul>
      <ol>${s.transitions.map((t) => html`<li>${time(t.at, d.now)}: ${t.from ?? 'opened'} → ${t.to} (${t.actor}) ${t.reason}</li>`)}</ol>
    </details>
    ${
      open && d.canEdit
        ? html`<form method="post" action="/team/early-warning/signals/${s.id}/dismiss" class="inline-form" data-dismiss>${csrfField(d.csrf)}
        <label for="reason-${s.id}">Reason (optional)</label>
        <input id="reason-${s.id}" name="reason" type="text" maxlength="500" autocomplete="off">
        <button type="submit" class="button button--small button--danger">Dismiss as a false alarm<span class="visually-hidden">: ${name}</span></button>
      </form>`
        : ''
    }
  </article>`;
}

function reportForm(d: EarlyWarningPageData): Html {
  return html`<section class="panel" aria-labelledby="report-title">
    <h2 id="report-title">We see problems with a vendor</h2>
    <p>Tell your team's early warning what you see. Three members reporting, or one report agreeing with another source, opens a signal. One report per vendor every 5 minutes.</p>
    <form method="post" action="/team/early-warning/report" data-report>
      ${csrfField(d.csrf)}
      <div class="field"><label for="report-vendor">Vendor</label>
        <input id="report-vendor" name="vendor" type="text" list="report-vendors" required maxlength="100" autocomplete="off" aria-describedby="report-vendor-help">
        <datalist id="report-vendors">${d.vendors.map((v) => html`<option value="${v.slug}">${v.name}</option>`)}</datalist>
        <p id="report-vendor-help" class="field__hint">The vendor's id as in its address, e.g. github for /vendors/github.</p></div>
      <div class="field"><label for="report-summary">What you see (optional)</label>
        <input id="report-summary" name="summary" type="text" maxlength="500" autocomplete="off"></div>
      <div class="form-actions"><button type="submit" class="button">Report a problem</button></div>
    </form>
  </section>`;
}

function secretSection(d: EarlyWarningPageData): Html {
  const s = d.secret;
  if (!s) return html``;
  return html`<section class="panel" aria-labelledby="secret-title" data-signal-secret>
    <h2 id="secret-title">Inbound signal API</h2>
    <p>Your own systems post observations to <code class="wrap-anywhere">POST /api/v1/orgs/…/signals</code>, signed with this secret (Standard Webhooks headers).</p>
    <p data-secret-status>${s.configured ? html`Signing secret <code>${s.lastFour ?? ''}</code>, made ${time(s.createdAt, d.now)}.` : 'No signing secret yet: inbound signals are refused.'}</p>
    <form method="post" action="/team/early-warning/secret" class="inline-form">${csrfField(d.csrf)}
      <button type="submit" class="button button--small${s.configured ? ' button--danger' : ''}">${s.configured ? 'Replace the signing secret (the old one stops at once)' : 'Make a signing secret'}</button>
    </form>
  </section>`;
}

export function earlyWarningPage(d: EarlyWarningPageData): Page {
  const n = d.notice;
  const names = new Map(d.vendors.map((v) => [v.slug, v.name]));
  const open = d.signals.filter((s) => s.state === 'suspected' || s.state === 'confirmed');
  const recent = d.signals.filter((s) => s.state === 'cleared' || s.state === 'dismissed');
  return {
    title: `Early warning: ${d.orgName}`,
    main: html`<h1 class="page-title">Early warning of ${d.orgName}</h1>
  ${
    n
      ? html`<div class="notice notice--${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}" data-ew-notice><p>${n.text}</p>
    ${n.secret ? html`<div class="secret-box"><p>Signing secret (shown once; store it where your systems sign with it):</p><code data-new-signal-secret>${n.secret}</code></div>` : ''}</div>`
      : ''
  }
  <p>Signals are your team's own suspicion, fused from probes, your telemetry, signed calls of your systems and members' reports. A vendor's status stays what the vendor reports. ${d.canEdit ? '' : 'Editors and above dismiss false alarms.'}</p>
  <p><a href="/team/early-warning/transparency">How far vendors' pages lag your signals</a></p>
  <section class="panel" aria-labelledby="open-signals-title" data-open-signals>
    <h2 id="open-signals-title">Open signals</h2>
    ${open.length ? html`<div class="record-list">${open.map((s) => signalArticle(s, d, names))}</div>` : html`<p class="empty">No open signal.</p>`}
  </section>
  <section class="panel" aria-labelledby="recent-signals-title" data-recent-signals>
    <h2 id="recent-signals-title">Recent signals</h2>
    ${recent.length ? html`<div class="record-list">${recent.map((s) => signalArticle(s, d, names))}</div>` : html`<p class="empty">No cleared or dismissed signal yet.</p>`}
  </section>
  ${reportForm(d)}
  ${secretSection(d)}
  <p><a href="/team">Back to the team</a></p>`,
  };
}

export interface RankingPageData {
  orgName: string;
  order: TransparencyOrder;
  vendors: VendorTransparency[];
  names: Map<string, string>;
}

export function rankingPage(d: RankingPageData): Page {
  const orderLink = (o: TransparencyOrder, label: string) =>
    d.order === o ? html`<strong aria-current="true">${label}</strong>` : html`<a href="/team/early-warning/transparency?order=${o}">${label}</a>`;
  return {
    title: `Vendor transparency: ${d.orgName}`,
    main: html`<h1 class="page-title">How far vendors' pages lag ${d.orgName}</h1>
  <p>From your team's own signals over the last ${String(TRANSPARENCY_DAYS)} days: the lead your signal had over the vendor's first post, the outages the vendor never posted (cleared signals whose window for a matching incident ended, not dismissed), and the time from your signal to the vendor's resolution. A figure with nothing under it says unknown, never zero.</p>
  <p class="scope-switch">Order by ${orderLink('lead', 'median lead time')} · ${orderLink('unposted', 'unposted outages')}</p>
  ${
    d.vendors.length
      ? html`<div class="table-scroll" role="region" aria-label="Vendors ranked" tabindex="0"><table data-ranking>
    <thead><tr><th scope="col">Vendor</th><th scope="col">Lead over the first post</th><th scope="col">Never posted</th><th scope="col">Signal to resolution</th><th scope="col">Signals</th></tr></thead>
    <tbody>${d.vendors.map((t) => rankingRow(t, d.names.get(t.vendor) ?? t.vendor))}</tbody>
  </table></div>`
      : html`<p class="empty">No signal in the last ${String(TRANSPARENCY_DAYS)} days: nothing to rank yet.</p>`
  }
  <p><a href="/team/early-warning">Back to early warning</a></p>`,
  };
}
