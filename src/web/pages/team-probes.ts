import type { PrivateProbeView } from '../../services/probes/private-probes-service.ts';
import { html, type Html } from '../html.ts';
import type { Page } from '../layout.ts';
import { time } from '../views/format.ts';

// The private probes page (docs/early-warning.md "Private probes", docs/web.md "Team"): the
// organisation's own probes with their state and figures, read-only; the credential shows as
// its header name and last four characters. Nothing measured yet shows as unknown, no figures.

export interface TeamProbesPageData {
  orgName: string;
  probes: PrivateProbeView[];
}

const STATE: Record<PrivateProbeView['state'], string> = {
  unknown: 'Unknown (not measured yet)',
  ok: 'OK',
  anomalous: 'Anomalous',
  credential_rejected: 'Credential rejected',
};

const ms = (v: number | null) => (v === null ? '–' : `${v} ms`);

function row(p: PrivateProbeView): Html {
  return html`<tr data-probe="${p.id}" data-probe-state="${p.state}">
    <td>${STATE[p.state]}${p.reason ? html`<br><small>${p.reason}</small>` : ''}</td>
    <td>${p.vendor}</td>
    <td>${p.kind}</td>
    <td><small><code>${p.target}</code></small></td>
    <td>${p.intervalSeconds} s</td>
    <td>${p.credential ? html`<code>${p.credential.name}</code>${p.credential.lastFour ? html` …${p.credential.lastFour}` : ''}` : 'none'}</td>
    <td>${ms(p.p50Ms)} / ${ms(p.p99Ms)}</td>
    <td>${p.errorRate === null ? '–' : `${(p.errorRate * 100).toFixed(1)} %`}</td>
    <td><small>${p.lastSampleAt ? time(p.lastSampleAt) : 'never'}</small></td>
  </tr>`;
}

export function teamProbesPage(d: TeamProbesPageData): Page {
  return {
    title: `Private probes: ${d.orgName}`,
    main: html`<h1 class="page-title">Private probes of ${d.orgName}</h1>
  <p>Your organisation's own checks of its vendors. What they see is yours alone. “Credential rejected” means the vendor refused your key (401 or 403), not that the vendor is down. Editors add and change probes through the API (<code>/api/v1/orgs/{id}/probes</code>).</p>
  ${
    d.probes.length
      ? html`<div class="table-scroll" role="region" aria-label="Private probes" tabindex="0"><table data-private-probes>
    <thead><tr><th scope="col">State</th><th scope="col">Vendor</th><th scope="col">Kind</th><th scope="col">Target</th><th scope="col">Every</th><th scope="col">Credential</th><th scope="col">p50 / p99</th><th scope="col">Errors</th><th scope="col">Last check</th></tr></thead>
    <tbody>${d.probes.map(row)}</tbody>
  </table></div>`
      : html`<p class="empty">No private probes yet.</p>`
  }`,
  };
}
