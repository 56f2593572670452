import type { AffectedServiceView } from '../../services/impact/impact-service.ts';
import { html, type Html } from '../html.ts';
import { humanize } from './format.ts';

// The services hit now, with the confidence and the reasons behind each (docs/services.md
// "Impact now"): on the services page and in the overview's "Our services".

export function impactList(services: readonly AffectedServiceView[]): Html {
  return html`<ul>${services.map(
    (s) => html`<li data-impact-service="${s.serviceName}"><strong>${s.serviceName}</strong> (${humanize(s.criticality)}): ${s.confidence} confidence
          <ul>${s.records.map((r) => html`<li><small>${r.vendor} ${r.kind} “${r.title}”: ${r.reasons.join('; ')}</small></li>`)}</ul></li>`,
  )}</ul>`;
}
