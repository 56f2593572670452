import type { BoardView } from '../../services/feeds/board-service.ts';
import { html, type Html } from '../html.ts';
import { time } from '../views/format.ts';

// Account section of public status boards (docs/boards.md): publish the watchlist,
// see the boards (never their URLs, which are shown once), revoke them.

export function boardsList(boards: BoardView[]): Html {
  if (!boards.length) return html`<p class="empty" data-boards-empty>No public boards.</p>`;
  return html`<ul class="board-list">${boards.map(
    (b) => html`<li data-board-id="${b.id}">
      <strong>${b.title}</strong> · ${b.vendors.length} vendor${b.vendors.length === 1 ? '' : 's'} · created ${time(b.createdAt)}
      · embeddable by <code>${b.frameAncestors.join(' ')}</code>
      <button type="button" class="button button--small button--danger" data-board-revoke="${b.id}" aria-label="Revoke board ${b.title}">Revoke</button>
    </li>`,
  )}</ul>`;
}

export function boardsSection(boards: BoardView[]): Html {
  return html`<section class="panel" id="boards" aria-labelledby="boards-title">
    <h2 id="boards-title">Public status boards</h2>
    <p>Publish your watchlist as a read-only status page of your vendors at a secret address, for your team or your customers.
      It updates live, can be embedded in other sites, and shows the vendors only: nothing of your account.
      Revoking a board makes its address stop working at once.</p>
    <form data-board-form novalidate>
      <div class="field">
        <label for="board-title">Title</label>
        <input id="board-title" name="title" type="text" maxlength="100" placeholder="Our vendors" autocomplete="off">
      </div>
      <div class="field">
        <label for="board-frames">Sites that may embed it</label>
        <input id="board-frames" name="frameAncestors" type="text" autocomplete="off" aria-describedby="board-frames-hint" placeholder="*">
        <p class="field__hint" id="board-frames-hint">Space-separated origins, e.g. https://intranet.example.com. Empty: any site. <code>'none'</code>: no site.</p>
      </div>
      <div class="form-actions">
        <button type="submit" class="button">Publish a board</button>
        <p data-board-status role="status" hidden></p>
      </div>
      <p data-board-url hidden>Address (shown once; copy it now): <a data-board-link href="#"></a></p>
    </form>
    <div data-boards-list>${boardsList(boards)}</div>
  </section>`;
}
