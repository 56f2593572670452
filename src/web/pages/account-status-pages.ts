import type { CustomPagesView } from '../../services/vendors/custom-pages-service.ts';
import { html, type Html } from '../html.ts';
import { time } from '../views/format.ts';

// Account section of status pages added by URL (docs/per-user.md "Custom status pages"):
// add a page (its platform is detected), see each one's polling state, remove it.

export function statusPagesList(v: CustomPagesView): Html {
  const head = html`<p class="muted" data-status-pages-count>${v.count} of ${v.limit} pages used.</p>`;
  if (!v.pages.length) return html`${head}<p class="empty" data-status-pages-empty>No status pages added.</p>`;
  return html`${head}<ul class="board-list">${v.pages.map(
    (p) => html`<li data-status-page="${p.slug}">
      <a href="/vendors/${p.slug}"><strong>${p.name}</strong></a> · ${p.sources[0]?.type ?? ''} · added ${time(p.addedAt)}
      · ${p.lastSuccessAt ? html`polled ${time(p.lastSuccessAt)}` : p.lastError ? html`failing: ${p.lastError}` : 'not polled yet'}
      <br><code>${p.pageUrl}</code>
      <button type="button" class="button button--small button--danger" data-status-page-remove="${p.slug}" aria-label="Remove status page ${p.name}">Remove</button>
    </li>`,
  )}</ul>`;
}

export function statusPagesSection(v: CustomPagesView): Html {
  const form =
    v.limit > 0
      ? html`<form data-status-page-form novalidate>
      <div class="field">
        <label for="status-page-url">Status page address</label>
        <input id="status-page-url" name="url" type="url" required maxlength="2048" placeholder="https://status.example.com" autocomplete="off" aria-describedby="status-page-url-hint">
        <p class="field__hint" id="status-page-url-hint">Statuspage (its API, or its page when the API is off), incident.io, Instatus, Better Stack, status.io, Cachet, Statuspal (a page at its statuspal.io address), Hund, UptimeRobot, cState, or an RSS/Atom history feed.</p>
      </div>
      <div class="field">
        <label for="status-page-name">Name (optional)</label>
        <input id="status-page-name" name="name" type="text" maxlength="100" autocomplete="off">
      </div>
      <div class="form-actions">
        <button type="submit" class="button">Add the page</button>
        <p data-status-page-status role="status" hidden></p>
      </div>
      <ul data-status-page-tried class="muted" hidden></ul>
    </form>`
      : html`<p>Adding status pages needs a higher plan.</p>`;
  return html`<section class="panel" id="status-pages" aria-labelledby="status-pages-title">
    <h2 id="status-pages-title">Your status pages</h2>
    <p>Add any vendor's status page by its address. It is watched like the vendors of the catalog (API, live stream, alerts)
      and only you can see it.</p>
    ${form}
    <div data-status-pages-list>${statusPagesList(v)}</div>
  </section>`;
}
