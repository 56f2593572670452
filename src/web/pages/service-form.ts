import { CRITICALITIES } from '../../domain/team-services.ts';
import type { ServiceView } from '../../services/team-services/services-service.ts';
import { html, type Html } from '../html.ts';
import { humanize } from '../views/format.ts';

// The form that adds a service and the one that edits it (docs/web.md "Team"): the same
// fields, plain HTML that works without JavaScript. Dependencies are one per line,
// `vendor | hard or soft | components | regions`, as the add form has always read them.

/** What the form shows: a stored service, or what was just posted and refused. */
export interface ServiceFormValues {
  name: string;
  ownerRouteId: string;
  criticality: string;
  tags: string;
  dependencies: string;
}

export const EMPTY_SERVICE_FORM: ServiceFormValues = { name: '', ownerRouteId: '', criticality: 'medium', tags: '', dependencies: '' };

/**
 * A stored service as the form's text. Components are written by their current name (the
 * form reads an exact name as its id), or by id when the vendor no longer reports them.
 */
export function serviceFormValues(s: ServiceView): ServiceFormValues {
  return {
    name: s.name,
    ownerRouteId: s.ownerRouteId ?? '',
    criticality: s.criticality,
    tags: s.tags.join(', '),
    dependencies: s.dependencies
      .map((d) => `${d.vendor} | ${d.kind} | ${d.components.map((c) => c.name ?? c.id).join(', ')} | ${d.regions.map((r) => r.code).join(', ')}`)
      .join('\n'),
  };
}

export interface ServiceFormOptions {
  /** `add`, or the id of the service edited. */
  mode: { kind: 'add' } | { kind: 'edit'; id: string; storedName: string };
  values: ServiceFormValues;
  /** The organisation's alert routes, for the owner route. */
  routes: { id: string; name: string }[];
  csrf: string;
}

export function serviceForm(o: ServiceFormOptions): Html {
  const edit = o.mode.kind === 'edit' ? o.mode : null;
  // Ids differ between the two forms, so both may be on one page without clashing labels.
  const p = edit ? 'edit-service' : 'service';
  const v = o.values;
  return html`<section class="panel" aria-labelledby="${p}-title" id="${p}-form"${edit ? html` data-edit-service="${edit.id}"` : html``}>
    <h2 id="${p}-title">${edit ? `Edit ${edit.storedName}` : 'Add a service'}</h2>
    <form method="post" action="${edit ? `/team/services/${edit.id}` : '/team/services'}"${edit ? html`` : html` data-add-service`}>
      <input type="hidden" name="_csrf" value="${o.csrf}">
      <div class="field"><label for="${p}-name">Name</label>
        <input id="${p}-name" name="name" type="text" maxlength="64" required autocomplete="off" value="${v.name}" aria-describedby="${p}-name-help">
        <p id="${p}-name-help" class="field__hint">Lower-case letters, digits, and dashes or dots between them, e.g. checkout-api.</p></div>
      <div class="field"><label for="${p}-owner">Owner route (optional)</label>
        <select id="${p}-owner" name="ownerRouteId" aria-describedby="${p}-owner-help">
          <option value=""${v.ownerRouteId ? html`` : html` selected`}>None</option>
          ${o.routes.map((r) => html`<option value="${r.id}"${r.id === v.ownerRouteId ? html` selected` : html``}>${r.name}</option>`)}
        </select>
        <p id="${p}-owner-help" class="field__hint">The alert route that reaches the team owning the service.</p></div>
      <div class="field"><label for="${p}-criticality">Criticality</label>
        <select id="${p}-criticality" name="criticality">${CRITICALITIES.map((c) => html`<option value="${c}"${c === v.criticality ? html` selected` : html``}>${humanize(c)}</option>`)}</select></div>
      <div class="field"><label for="${p}-tags">Tags (optional)</label>
        <input id="${p}-tags" name="tags" type="text" maxlength="1000" autocomplete="off" value="${v.tags}" aria-describedby="${p}-tags-help">
        <p id="${p}-tags-help" class="field__hint">Separated by commas, e.g. team:payments, tier-1.</p></div>
      <div class="field"><label for="${p}-deps">Dependencies</label>
        <textarea id="${p}-deps" name="dependencies" rows="4" maxlength="20000" aria-describedby="${p}-deps-help">${v.dependencies}</textarea>
        <p id="${p}-deps-help" class="field__hint">One vendor per line: <code>vendor | hard or soft | components | regions</code>,
          lists separated by commas, e.g. <code>github | hard | Actions |</code> or <code>amazon-web-services | soft | | us-east-1, eu-west-1</code>.${
            edit ? ' Saving replaces every dependency with these lines.' : ''
          }</p></div>
      <div class="form-actions"><button type="submit" class="button">${edit ? 'Save changes' : 'Add service'}</button>${
        edit ? html` <a href="/team/services" class="button button--secondary">Cancel</a>` : html``
      }</div>
    </form>
  </section>`;
}
