import type { Advisory, Incident, Maintenance, RecordUpdate, ReleaseUpdate } from '../../domain/records.ts';
import type { AffectedServiceRef } from '../../services/impact/record-annotations.ts';
import { html, type Html, safeUrl, trusted } from '../html.ts';
import { formatDuration, humanize, impactBadge, time } from './format.ts';

// Renderers of the normalised records. Every vendor-supplied string goes through
// `html` escaping; links only when they are http(s).

export function externalLink(url: string | null, label: string): Html {
  const href = safeUrl(url);
  return href
    ? html`<a href="${href}" rel="noopener noreferrer external" target="_blank">${label}<span class="visually-hidden"> (opens in a new tab)</span></a>`
    : html``;
}

function heading(level: 2 | 3 | 4, content: Html, cls: string): Html {
  const tag = trusted(`h${level}`); // one of three constants, never data
  return html`<${tag} class="${cls}">${content}</${tag}>`;
}

function updatesList(updates: RecordUpdate[], now: Date): Html {
  if (!updates.length) return html`<p class="muted">No updates published.</p>`;
  const newestFirst = [...updates].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return html`<ol class="timeline">
    ${newestFirst.map(
      (u) => html`<li class="timeline__item">
      <p class="timeline__meta"><strong>${humanize(u.status)}</strong> · ${time(u.createdAt, now)}</p>
      <p class="timeline__body">${u.body}</p>
    </li>`,
    )}
  </ol>`;
}

function affected(list: string[]): Html {
  return list.length ? html`<p class="record__components"><span class="muted">Affects:</span> ${list.join(', ')}</p>` : html``;
}

export interface RecordOptions {
  headingLevel: 2 | 3 | 4;
  /** Prefix the title with a link to the vendor (cross-vendor lists). */
  showVendor?: boolean;
  /** Updates folded into a <details> (long history lists). */
  collapsed?: boolean;
  /** The reader's organisation's services the record may hit; absent: not shown (not known to this reader). */
  ourServices?: readonly AffectedServiceRef[];
}

/** "Our services: checkout-api (high: component 'Actions' listed)", or that none is hit. */
export function ourServicesLine(hits: readonly AffectedServiceRef[]): Html {
  return html`<p class="record__ours" data-our-services><span class="muted">Our services:</span> ${
    hits.length ? hits.map((h) => `${h.serviceName} (${h.confidence}: ${h.reasons.join('; ')})`).join(', ') : 'none hit'
  }</p>`;
}

export function incidentArticle(i: Incident, now: Date, opts: RecordOptions): Html {
  const title = html`${opts.showVendor ? html`<a href="/vendors/${i.vendor}">${i.vendorName}</a>: ` : ''}${i.title}`;
  const meta = html`<p class="record__meta">
      ${impactBadge(i.impact)}
      <span class="tag tag--status-${i.status}">${humanize(i.status)}</span>
      <span>Started ${time(i.startedAt, now)}</span>
      ${i.resolvedAt ? html`<span>Resolved ${time(i.resolvedAt)}, lasted ${formatDuration(i.durationMinutes)}</span>` : ''}
    </p>`;
  const body = html`${affected(i.components)}${updatesList(i.updates, now)}${i.url ? html`<p>${externalLink(i.url, 'Incident on the vendor status page')}</p>` : ''}`;
  return html`<article class="record record--incident record--impact-${i.impact}" data-id="${i.id}">
    ${heading(opts.headingLevel, title, 'record__title')}
    ${meta}
    ${opts.ourServices ? ourServicesLine(opts.ourServices) : ''}
    ${opts.collapsed ? html`<details><summary>${i.updates.length} update${i.updates.length === 1 ? '' : 's'}</summary>${body}</details>` : body}
  </article>`;
}

export function maintenanceArticle(m: Maintenance, now: Date, opts: RecordOptions): Html {
  const title = html`${opts.showVendor ? html`<a href="/vendors/${m.vendor}">${m.vendorName}</a>: ` : ''}${m.title}`;
  return html`<article class="record record--maintenance" data-id="${m.id}">
    ${heading(opts.headingLevel, title, 'record__title')}
    <p class="record__meta">
      <span class="tag tag--maintenance-${m.status}">${humanize(m.status)}</span>
      <span>${time(m.scheduledFor, now)}${m.scheduledUntil ? html` to ${time(m.scheduledUntil)}` : ''}</span>
    </p>
    ${affected(m.components)}
    ${m.updates.length ? (opts.collapsed ? html`<details><summary>${m.updates.length} update${m.updates.length === 1 ? '' : 's'}</summary>${updatesList(m.updates, now)}</details>` : updatesList(m.updates, now)) : ''}
    ${m.url ? html`<p>${externalLink(m.url, 'Maintenance on the vendor status page')}</p>` : ''}
  </article>`;
}

export function advisoryArticle(a: Advisory, now: Date): Html {
  return html`<article class="record record--advisory" data-id="${a.id}">
    <h3 class="record__title">${a.title}</h3>
    <p class="record__meta">
      <span class="tag tag--severity-${a.severity}">${humanize(a.severity)} severity</span>
      <span>Published ${time(a.publishedAt, now)}</span>
      ${a.cves.length ? html`<span>${a.cves.join(', ')}</span>` : ''}
    </p>
    ${a.summary ? html`<p class="record__summary">${a.summary}</p>` : ''}
    ${a.url ? html`<p>${externalLink(a.url, 'Advisory on the vendor site')}</p>` : ''}
  </article>`;
}

export function updateArticle(u: ReleaseUpdate, now: Date): Html {
  return html`<article class="record record--update" data-id="${u.id}">
    <h3 class="record__title">${u.title}</h3>
    <p class="record__meta">
      <span>Published ${time(u.publishedAt, now)}</span>
      ${u.categories.map((c) => html`<span class="tag">${c}</span>`)}
    </p>
    ${u.summary ? html`<p class="record__summary">${u.summary}</p>` : ''}
    ${u.url ? html`<p>${externalLink(u.url, 'Release note on the vendor site')}</p>` : ''}
  </article>`;
}
