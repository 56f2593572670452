import type { Distribution, VendorTransparency } from '../../domain/early-warning-transparency.ts';
import { TRANSPARENCY_DAYS } from '../../domain/early-warning-transparency.ts';
import { html, type Html } from '../html.ts';

// The transparency figures as the pages show them (docs/early-warning.md "Transparency"):
// a distribution as its median with the rest beside it, an unknown figure as "unknown"
// with its reason, never as 0.

const mins = (m: number) => (m >= 120 ? `${Math.round(m / 6) / 10} h` : `${m} min`);

/** "12 min median (p90 30 min, 4.5–30 min, 3 outages)", or null. */
export function distributionText(d: Distribution | null): string | null {
  if (!d) return null;
  return `${mins(d.p50)} median (p90 ${mins(d.p90)}, ${mins(d.min)}–${mins(d.max)}, ${d.count} ${d.count === 1 ? 'outage' : 'outages'})`;
}

const reasonOf = (t: VendorTransparency, figure: VendorTransparency['unknown'][number]['figure']) =>
  t.unknown.find((u) => u.figure === figure)?.reason ?? 'not known';

function figure(t: VendorTransparency, key: 'leadTimeMinutes' | 'timeToResolveMinutes'): Html {
  const text = distributionText(t[key]);
  return text ? html`${text}` : html`<span class="muted" data-unknown="${key}">Unknown: ${reasonOf(t, key)}</span>`;
}

/** The unposted outages, with those still inside their confirmation window said apart. */
function unposted(t: VendorTransparency): Html {
  if (t.unpostedOutages === null) return html`<span class="muted" data-unknown="unpostedOutages">Unknown: ${reasonOf(t, 'unpostedOutages')}</span>`;
  return html`${String(t.unpostedOutages)}${t.awaitingConfirmationWindow ? html` <span class="muted">(${String(t.awaitingConfirmationWindow)} more still inside the window the vendor has to post)</span>` : ''}`;
}

/** The vendor page's panel: the viewer's team's own figures about this vendor. */
export function transparencyPanel(name: string, t: VendorTransparency): Html {
  return html`<section aria-labelledby="transparency-title" class="panel" id="transparency" data-transparency>
    <h2 id="transparency-title">Early warning: how far ${name}'s page lags your team</h2>
    <p class="muted">From your team's own signals over the last ${String(TRANSPARENCY_DAYS)} days (${String(t.signals)} ${t.signals === 1 ? 'signal' : 'signals'}; ${String(t.outcomes.dismissed)} dismissed as false alarms). Your team's figures only: nobody else sees them.</p>
    <dl class="transparency">
      <dt>Lead over ${name}'s first post</dt><dd data-figure="lead">${figure(t, 'leadTimeMinutes')}</dd>
      <dt>Outages ${name} never posted</dt><dd data-figure="unposted">${unposted(t)}</dd>
      <dt>From your signal to ${name}'s resolution</dt><dd data-figure="resolve">${figure(t, 'timeToResolveMinutes')}</dd>
    </dl>
    <p><a href="/team/early-warning/transparency">All vendors ranked</a></p>
  </section>`;
}

/** One row of the ranking. */
export function rankingRow(t: VendorTransparency, name: string): Html {
  return html`<tr data-rank-vendor="${t.vendor}">
    <th scope="row"><a href="/vendors/${t.vendor}">${name}</a></th>
    <td>${figure(t, 'leadTimeMinutes')}</td>
    <td>${unposted(t)}</td>
    <td>${figure(t, 'timeToResolveMinutes')}</td>
    <td>${String(t.signals)}</td>
  </tr>`;
}
