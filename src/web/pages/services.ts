import type { AffectedServiceView } from '../../services/impact/impact-service.ts';
import type { ServiceView } from '../../services/team-services/services-service.ts';
import { html, type Html } from '../html.ts';
import type { Page } from '../layout.ts';
import { humanize, time } from '../views/format.ts';
import { impactList } from '../views/impact.ts';
import { EMPTY_SERVICE_FORM, type ServiceFormValues, serviceForm } from './service-form.ts';

// The services page (docs/services.md, docs/web.md "Team"): the organisation's services and
// the vendors they depend on, what vendor trouble hits of them now, and for editors a form
// to add one, a link to edit each in place and buttons to delete; plain forms that work
// without JavaScript.

export interface ServicesPageData {
  orgName: string;
  services: ServiceView[];
  impact: AffectedServiceView[];
  canEdit: boolean;
  csrf: string;
  notice?: { kind: 'ok' | 'error'; text: string };
  /** The organisation's alert routes (the owner route of a service). */
  routes: { id: string; name: string }[];
  /** The add form's fields (kept after a refusal). */
  adding?: ServiceFormValues;
  /** A service being edited (`?edit=`), with the fields to show. */
  editing?: { id: string; storedName: string; values: ServiceFormValues };
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

const ownerName = (s: ServiceView, d: ServicesPageData) => (s.ownerRouteId ? (d.routes.find((r) => r.id === s.ownerRouteId)?.name ?? 'a route') : 'none');

function serviceRow(s: ServiceView, d: ServicesPageData): Html {
  return html`<tr data-service="${s.name}">
    <td>${s.name}</td>
    <td>${humanize(s.criticality)}</td>
    <td><small data-service-owner>${ownerName(s, d)}</small></td>
    <td><small data-service-deps>${dependencyText(s)}</small></td>
    <td><small>${s.tags.join(', ')}</small></td>
    <td><small>${time(s.updatedAt)}</small></td>
    ${
      d.canEdit
        ? html`<td><a href="/team/services?edit=${s.id}#edit-service-form" class="button button--small button--secondary" aria-label="Edit ${s.name}">Edit</a>
          <form method="post" action="/team/services/${s.id}/delete" class="inline-form">${csrfField(d.csrf)}<button type="submit" class="button button--small button--danger" aria-label="Delete ${s.name}">Delete</button></form></td>`
        : ''
    }
  </tr>`;
}

function impactSection(d: ServicesPageData): Html {
  return html`<section class="panel" aria-labelledby="impact-title" data-impact>
    <h2 id="impact-title">Hit now</h2>
    ${d.impact.length ? impactList(d.impact) : html`<p class="empty">No open incident or maintenance under way hits these services.</p>`}
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
    <thead><tr><th scope="col">Name</th><th scope="col">Criticality</th><th scope="col">Owner route</th><th scope="col">Depends on</th><th scope="col">Tags</th><th scope="col">Changed</th>${d.canEdit ? html`<th scope="col">Actions</th>` : ''}</tr></thead>
    <tbody>${d.services.map((s) => serviceRow(s, d))}</tbody>
  </table></div>`
      : html`<p class="empty">No services yet.</p>`
  }
  ${d.canEdit && d.editing ? serviceForm({ mode: { kind: 'edit', id: d.editing.id, storedName: d.editing.storedName }, values: d.editing.values, routes: d.routes, csrf: d.csrf }) : ''}
  ${d.canEdit ? serviceForm({ mode: { kind: 'add' }, values: d.adding ?? EMPTY_SERVICE_FORM, routes: d.routes, csrf: d.csrf }) : ''}
  <p><a href="/team">Back to the team</a></p>`,
  };
}
