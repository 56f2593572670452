import { CRITICALITIES } from '../../domain/team-services.ts';
import type { AffectedServiceView } from '../../services/impact/impact-service.ts';
import type { ServiceView } from '../../services/team-services/services-service.ts';
import { html, type Html } from '../html.ts';
import type { Page } from '../layout.ts';
import { humanize, time } from '../views/format.ts';

// The services page (docs/services.md, docs/web.md "Team"): the organisation's services and
// the vendors they depend on, what vendor trouble hits of them now, and for editors a form
// to add one and buttons to delete; plain forms that work without JavaScript.

export interface ServicesPageData {
  orgName: string;
  services: ServiceView[];
  impact: AffectedServiceView[];
  canEdit: boolean;
  csrf: string;
  notice?: { kind: 'ok' | 'error'; text: string };
}

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

function dependencyText(s: ServiceView): string {
  if (!s.dependencies.length) return 'none';
  return s.dependencies
    .map((d) => {
      const parts = [...d.components.map((c) => c.name ?? `${c.id} (no longer reported)`), ...d.regions.map((r) => r.code)];
      return `${d.vendor}${d.kind === 'soft' ? ' (soft)' : ''}${parts.length ? `: ${parts.join(', ')}` : ''}`;
    })
    .join('; ');
}

function serviceRow(s: ServiceView, d: ServicesPageData): Html {
  return html`<tr data-service="${s.name}">
    <td>${s.name}</td>
    <td>${humanize(s.criticality)}</td>
    <td><small data-service-deps>${dependencyText(s)}</small></td>
    <td><small>${s.tags.join(', ')}</small></td>
    <td><small>${time(s.updatedAt)}</small></td>
    ${
      d.canEdit
        ? html`<td><form method="post" action="/team/services/${s.id}/delete" class="inline-form">${csrfField(d.csrf)}<button type="submit" class="button button--small button--danger" aria-label="Delete ${s.name}">Delete</button></form></td>`
        : ''
    }
  </tr>`;
}

function impactSection(d: ServicesPageData): Html {
  return html`<section class="panel" aria-labelledby="impact-title" data-impact>
    <h2 id="impact-title">Hit now</h2>
    ${
      d.impact.length
        ? html`<ul>${d.impact.map(
            (s) => html`<li data-impact-service="${s.serviceName}"><strong>${s.serviceName}</strong> (${humanize(s.criticality)}): ${s.confidence} confidence
          <ul>${s.records.map((r) => html`<li><small>${r.vendor} ${r.kind} “${r.title}”: ${r.reasons.join('; ')}</small></li>`)}</ul></li>`,
          )}</ul>`
        : html`<p class="empty">No open incident or maintenance under way hits these services.</p>`
    }
  </section>`;
}

function addForm(d: ServicesPageData): Html {
  return html`<section class="panel" aria-labelledby="add-service-title">
    <h2 id="add-service-title">Add a service</h2>
    <form method="post" action="/team/services" data-add-service>
      ${csrfField(d.csrf)}
      <div class="field"><label for="service-name">Name</label>
        <input id="service-name" name="name" type="text" maxlength="64" required autocomplete="off" aria-describedby="service-name-help">
        <p id="service-name-help" class="field__hint">Lower-case letters, digits, and dashes or dots between them, e.g. checkout-api.</p></div>
      <div class="field"><label for="service-criticality">Criticality</label>
        <select id="service-criticality" name="criticality">${CRITICALITIES.map((c) => html`<option value="${c}"${c === 'medium' ? html` selected` : ''}>${humanize(c)}</option>`)}</select></div>
      <div class="field"><label for="service-tags">Tags (optional)</label>
        <input id="service-tags" name="tags" type="text" maxlength="1000" autocomplete="off" aria-describedby="service-tags-help">
        <p id="service-tags-help" class="field__hint">Separated by commas, e.g. team:payments, tier-1.</p></div>
      <div class="field"><label for="service-deps">Dependencies</label>
        <textarea id="service-deps" name="dependencies" rows="4" maxlength="20000" aria-describedby="service-deps-help"></textarea>
        <p id="service-deps-help" class="field__hint">One vendor per line: <code>vendor | hard or soft | components | regions</code>,
          lists separated by commas, e.g. <code>github | hard | Actions |</code> or <code>amazon-web-services | soft | | us-east-1, eu-west-1</code>.</p></div>
      <div class="form-actions"><button type="submit" class="button">Add service</button></div>
    </form>
  </section>`;
}

export function servicesPage(d: ServicesPageData): Page {
  return {
    title: `Services: ${d.orgName}`,
    main: html`<h1 class="page-title">Services of ${d.orgName}</h1>
  ${d.notice ? html`<div class="notice notice--${d.notice.kind}" role="${d.notice.kind === 'error' ? 'alert' : 'status'}" data-services-notice><p>${d.notice.text}</p></div>` : ''}
  <p>Your own services and the vendors each depends on: vendor incidents and maintenance are judged against them. ${d.canEdit ? '' : 'Editors and above change services.'}</p>
  ${impactSection(d)}
  ${
    d.services.length
      ? html`<div class="table-scroll" role="region" aria-label="Services" tabindex="0"><table data-services>
    <thead><tr><th scope="col">Name</th><th scope="col">Criticality</th><th scope="col">Depends on</th><th scope="col">Tags</th><th scope="col">Changed</th>${d.canEdit ? html`<th scope="col">Actions</th>` : ''}</tr></thead>
    <tbody>${d.services.map((s) => serviceRow(s, d))}</tbody>
  </table></div>`
      : html`<p class="empty">No services yet.</p>`
  }
  ${d.canEdit ? addForm(d) : ''}
  <p><a href="/team">Back to the team</a></p>`,
  };
}
