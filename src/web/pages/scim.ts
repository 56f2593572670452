import { SCIM_GROUP_ROLES } from '../../domain/scim-roles.ts';
import type { ScimTokenView } from '../../services/scim/scim-tokens-service.ts';
import { html } from '../html.ts';
import type { Page } from '../layout.ts';
import { humanize, time } from '../views/format.ts';

// The SCIM settings page (docs/teams.md "SCIM"; docs/web.md "Team"): the organisation's
// SCIM tokens (make one, its secret shown once; revoke) and the groups its identity
// provider pushed, each mapped to a role. Admins only; plain forms.

export interface ScimGroupSummary {
  id: string;
  displayName: string;
  role: string | null;
  members: number;
}

export interface ScimPageData {
  orgName: string;
  baseUrl: string;
  tokens: ScimTokenView[];
  groups: ScimGroupSummary[];
  csrf: string;
  notice?: { kind: 'ok' | 'error'; text: string; secret?: string };
}

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

export function scimPage(d: ScimPageData): Page {
  const n = d.notice;
  return {
    title: `SCIM: ${d.orgName}`,
    main: html`<h1 class="page-title">SCIM provisioning of ${d.orgName}</h1>
  ${
    n
      ? html`<div class="notice notice--${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}" data-scim-notice><p>${n.text}</p>
    ${n.secret ? html`<p>Token (shown once; paste it into the identity provider): <code data-scim-secret>${n.secret}</code></p>` : ''}</div>`
      : ''
  }
  <p>Your identity provider (Okta, Entra ID) adds and removes members through SCIM 2.0 at
    <code class="wrap-anywhere">${d.baseUrl}/scim/v2</code> with a token from here (docs: Teams, "SCIM").</p>
  <section class="panel" aria-labelledby="scim-tokens-title">
    <h2 id="scim-tokens-title">Tokens</h2>
    ${
      d.tokens.length
        ? html`<ul data-scim-tokens>${d.tokens.map(
            (
              t,
            ) => html`<li>${t.name} (<code>${t.prefix}…</code>), made ${time(t.createdAt)}, ${t.lastUsedAt ? html`last used ${time(t.lastUsedAt)}` : 'never used'}
          <form method="post" action="/team/scim/tokens/${t.id}/revoke" class="inline-form">${csrfField(d.csrf)}
            <button type="submit" class="button button--small button--danger" aria-label="Revoke the token ${t.name}">Revoke</button></form></li>`,
          )}</ul>`
        : html`<p class="empty">No tokens.</p>`
    }
    <form method="post" action="/team/scim/tokens" class="inline-form">
      ${csrfField(d.csrf)}
      <label for="scim-token-name">Token name</label>
      <input id="scim-token-name" name="name" type="text" maxlength="80" required autocomplete="off">
      <button type="submit" class="button button--small">Make a token</button>
    </form>
  </section>
  <section class="panel" aria-labelledby="scim-groups-title">
    <h2 id="scim-groups-title">Groups and roles</h2>
    <p>A member gets the highest role of the groups they are in; viewer when none gives one. SCIM never makes an owner.</p>
    ${
      d.groups.length
        ? html`<div class="table-scroll" role="region" aria-label="SCIM groups" tabindex="0"><table data-scim-groups>
      <thead><tr><th scope="col">Group</th><th scope="col">Members</th><th scope="col">Role</th></tr></thead>
      <tbody>${d.groups.map(
        (g) => html`<tr data-scim-group="${g.displayName}"><td>${g.displayName}</td><td>${String(g.members)}</td><td>
          <form method="post" action="/team/scim/groups/${g.id}/role" class="inline-form">${csrfField(d.csrf)}
            <select name="role" aria-label="Role given by ${g.displayName}">
              <option value=""${g.role === null ? html` selected` : ''}>None</option>
              ${SCIM_GROUP_ROLES.map((r) => html`<option value="${r}"${g.role === r ? html` selected` : ''}>${humanize(r)}</option>`)}
            </select>
            <button type="submit" class="button button--small">Save</button>
          </form></td></tr>`,
      )}</tbody></table></div>`
        : html`<p class="empty">No groups pushed yet.</p>`
    }
  </section>
  <p><a href="/team">Back to the team</a></p>`,
  };
}
