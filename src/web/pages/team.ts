import { ORG_ROLES, type OrgRole, roleAtLeast } from '../../domain/org-roles.ts';
import type { AuditEntryView } from '../../services/orgs/audit-service.ts';
import type { InvitationView, MemberRow, MyOrg } from '../../services/orgs/orgs-service.ts';
import { html, type Html } from '../html.ts';
import type { Page } from '../layout.ts';
import { humanize, time } from '../views/format.ts';
import { ssoSection, type TeamSsoData } from './team-sso.ts';

// The team pages (docs/teams.md, docs/web.md "Team"): the organisation switcher,
// members and invitations, and the audit log. Plain forms that post to the page's own
// routes and work without JavaScript; each refusal is shown next to what was tried.

export interface TeamPageData {
  orgs: (MyOrg & { current: boolean })[];
  me: string;
  members: MemberRow[];
  /** Open invitations; null when the caller may not see them (below admin). */
  invitations: InvitationView[] | null;
  csrf: string;
  /** Single sign-on settings; null when the caller may not see them (below admin, personal organisation). */
  sso?: TeamSsoData | null;
  /** What the last form did (or why not), shown at the top. */
  notice?: { kind: 'ok' | 'error'; text: string; link?: string };
}

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

const roleOptions = (selected: OrgRole, max: OrgRole) =>
  ORG_ROLES.filter((r) => roleAtLeast(max, r)).map((r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${humanize(r)}</option>`);

function notice(n: TeamPageData['notice']): Html | string {
  if (!n) return '';
  return html`<div class="notice notice--${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}" data-team-notice>
    <p>${n.text}</p>
    ${n.link ? html`<p>Invitation link (shown once; send it to the invited person): <code data-invitation-link>${n.link}</code></p>` : ''}
  </div>`;
}

function switcher(d: TeamPageData): Html {
  return html`<section class="panel" aria-labelledby="switch-title">
    <h2 id="switch-title">Organisation</h2>
    <form method="post" action="/team/switch" class="inline-form" data-org-switcher>
      ${csrfField(d.csrf)}
      <label for="org-select">Acting for</label>
      <select id="org-select" name="orgId">
        ${d.orgs.map((o) => html`<option value="${o.id}"${o.current ? html` selected` : ''}>${o.name} (${humanize(o.role)})</option>`)}
      </select>
      <button type="submit" class="button button--small">Switch</button>
    </form>
    <form method="post" action="/team/create" class="inline-form">
      ${csrfField(d.csrf)}
      <label for="org-name">New team organisation</label>
      <input id="org-name" name="name" type="text" maxlength="80" required autocomplete="off">
      <button type="submit" class="button button--small">Create</button>
    </form>
  </section>`;
}

function membersSection(d: TeamPageData, current: MyOrg & { current: boolean }): Html {
  const admin = roleAtLeast(current.role, 'admin');
  return html`<section class="panel" aria-labelledby="members-title">
    <h2 id="members-title">Members of ${current.name}</h2>
    <p>Your role: <strong data-my-role>${humanize(current.role)}</strong>. Viewers read; editors change watchlists, alerts, boards and status pages;
      admins manage members and keys; owners manage owners.</p>
    <div class="table-scroll" role="region" aria-label="Members" tabindex="0"><table data-members>
      <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Joined</th>${admin ? html`<th scope="col">Change</th>` : ''}</tr></thead>
      <tbody>${d.members.map(
        (m) => html`<tr data-member="${m.email}">
          <td>${m.email}${m.email === d.me ? ' (you)' : ''}</td>
          <td>${humanize(m.role)}</td>
          <td>${time(m.joinedAt)}</td>
          ${
            admin && !current.personal
              ? html`<td>
            <form method="post" action="/team/members/${m.userId}/role" class="inline-form">
              ${csrfField(d.csrf)}
              <select name="role" aria-label="Role of ${m.email}">${roleOptions(m.role, current.role)}</select>
              <button type="submit" class="button button--small">Save role</button>
            </form>
            ${
              m.email === d.me
                ? ''
                : html`<form method="post" action="/team/members/${m.userId}/remove" class="inline-form">
              ${csrfField(d.csrf)}
              <button type="submit" class="button button--small button--danger" aria-label="Remove ${m.email}">Remove</button>
            </form>`
            }
          </td>`
              : admin
                ? html`<td></td>`
                : ''
          }
        </tr>`,
      )}</tbody>
    </table></div>
    ${
      current.personal
        ? html`<p>This is your personal organisation: it has one member. Create a team organisation to invite people.</p>`
        : html`<form method="post" action="/team/leave" class="inline-form">${csrfField(d.csrf)}<button type="submit" class="button button--small button--danger">Leave ${current.name}</button></form>`
    }
  </section>`;
}

function invitationsSection(d: TeamPageData, current: MyOrg): Html | string {
  if (!d.invitations || current.personal) return '';
  return html`<section class="panel" aria-labelledby="invite-title">
    <h2 id="invite-title">Invitations</h2>
    <form method="post" action="/team/invite" data-invite-form>
      ${csrfField(d.csrf)}
      <div class="field">
        <label for="invite-email">E-mail address</label>
        <input id="invite-email" name="email" type="email" maxlength="254" required autocomplete="off">
      </div>
      <div class="field">
        <label for="invite-role">Role</label>
        <select id="invite-role" name="role">${roleOptions('viewer', current.role)}</select>
      </div>
      <div class="form-actions"><button type="submit" class="button">Invite</button></div>
    </form>
    ${
      d.invitations.length
        ? html`<ul data-invitations>${d.invitations.map(
            (i) => html`<li>${i.email} as ${humanize(i.role)}, until ${time(i.expiresAt)}
              <form method="post" action="/team/invitations/${i.id}/revoke" class="inline-form">${csrfField(d.csrf)}
                <button type="submit" class="button button--small button--danger" aria-label="Revoke the invitation of ${i.email}">Revoke</button></form></li>`,
          )}</ul>`
        : html`<p class="empty">No open invitations.</p>`
    }
    <p><a href="/team/audit">Audit log</a></p>
  </section>`;
}

export function teamPage(d: TeamPageData): Page {
  const current = d.orgs.find((o) => o.current) ?? d.orgs[0]!;
  return {
    title: `Team: ${current.name}`,
    main: html`<h1 class="page-title">Team</h1>
  ${notice(d.notice)}
  ${switcher(d)}
  <p><a href="/team/routes" data-routes-link>Alert routes</a> · <a href="/team/services" data-services-link>Services</a> · <a href="/team/early-warning" data-early-warning-link>Early warning</a> · <a href="/team/probes" data-probes-link>Private probes</a> · <a href="/team/scim">SCIM provisioning</a></p>
  ${membersSection(d, current)}
  ${invitationsSection(d, current)}
  ${d.sso && !current.personal ? ssoSection(d.sso, d.csrf) : ''}`,
  };
}

export interface AuditPageData {
  orgName: string;
  entries: AuditEntryView[];
  nextBefore: number | null;
  filters: { action?: string; actor?: string };
  csvUrl: string;
  ndjsonUrl: string;
}

const cell = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

export function auditPage(d: AuditPageData): Page {
  const q = (extra: Record<string, string>) => `?${new URLSearchParams({ ...(d.filters as Record<string, string>), ...extra })}`;
  return {
    title: `Audit log: ${d.orgName}`,
    main: html`<h1 class="page-title">Audit log of ${d.orgName}</h1>
  <form method="get" action="/team/audit" class="inline-form" aria-label="Filter the audit log">
    <label for="audit-action">Action</label>
    <input id="audit-action" name="action" type="text" maxlength="64" pattern="[a-z_.]+" value="${d.filters.action ?? ''}" placeholder="member.role_changed">
    <label for="audit-actor">Who</label>
    <select id="audit-actor" name="actor">
      <option value="">Anyone</option>
      ${['user', 'key', 'scim', 'operator', 'system'].map((k) => html`<option value="${k}"${d.filters.actor === k ? html` selected` : ''}>${humanize(k)}</option>`)}
    </select>
    <button type="submit" class="button button--small">Filter</button>
  </form>
  <p><a href="${d.csvUrl}" download>Download as CSV</a> · <a href="${d.ndjsonUrl}" download>Download as JSON lines</a></p>
  ${
    d.entries.length
      ? html`<div class="table-scroll" role="region" aria-label="Audit entries" tabindex="0"><table data-audit>
    <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Change</th></tr></thead>
    <tbody>${d.entries.map(
      (e) => html`<tr data-audit-seq="${String(e.seq)}">
        <td>${time(e.at)}</td>
        <td>${e.actor.label}${e.actor.address ? html`<br><small>${e.actor.address}</small>` : ''}</td>
        <td><code>${e.action}</code></td>
        <td>${e.target}</td>
        <td><small>${e.before !== null ? html`before ${cell(e.before)}<br>` : ''}${e.after !== null ? html`after ${cell(e.after)}` : ''}</small></td>
      </tr>`,
    )}</tbody>
  </table></div>`
      : html`<p class="empty">No entries${d.filters.action || d.filters.actor ? ' match' : ' yet'}.</p>`
  }
  ${d.nextBefore ? html`<p><a href="${q({ before: String(d.nextBefore) })}">Older entries</a></p>` : ''}
  <p><a href="/team">Back to the team</a></p>`,
  };
}

export interface InvitationPageData {
  invitation: InvitationView | null;
  token: string;
  /** Signed-in address, or null. */
  me: string | null;
  csrf: string;
  /** Why the last decision was refused, or what it did. */
  outcome?: { kind: 'ok' | 'error'; text: string };
}

export function invitationPage(d: InvitationPageData): Page {
  const i = d.invitation;
  if (!i) {
    return {
      title: 'Invitation not found',
      status: 404,
      main: html`<h1 class="page-title">Invitation not found</h1><p>This invitation link is not known. Check that it was copied whole, or ask for a new one.</p>`,
    };
  }
  const reasons: Record<string, string> = {
    accepted: 'This invitation was already accepted.',
    declined: 'This invitation was declined.',
    revoked: 'This invitation was revoked by an admin of the organisation.',
    expired: 'This invitation has expired. Ask an admin of the organisation for a new one.',
  };
  let body: Html;
  if (d.outcome)
    body = html`<p class="notice notice--${d.outcome.kind}" role="${d.outcome.kind === 'error' ? 'alert' : 'status'}" data-invitation-outcome>${d.outcome.text}</p>`;
  else if (i.state !== 'open') body = html`<p data-invitation-outcome>${reasons[i.state]}</p>`;
  else if (!d.me) {
    const next = encodeURIComponent(`/invitations/${d.token}`);
    body = html`<p>Sign in as <strong>${i.email}</strong> to answer it: <a href="/login?next=${next}">Log in</a> or <a href="/signup?next=${next}">sign up</a>.</p>`;
  } else if (d.me !== i.email) {
    body = html`<p data-invitation-outcome>This invitation is for ${i.email}, and you are signed in as ${d.me}. Sign in with the invited address to answer it.</p>`;
  } else {
    body = html`<form method="post" action="/invitations/${d.token}" class="inline-form">
      <input type="hidden" name="_csrf" value="${d.csrf}">
      <button type="submit" name="decision" value="accept" class="button">Accept</button>
      <button type="submit" name="decision" value="decline" class="button button--secondary">Decline</button>
    </form>`;
  }
  return {
    title: `Invitation to ${i.organisation.name}`,
    status: d.outcome?.kind === 'error' ? 409 : 200,
    main: html`<h1 class="page-title">Invitation to ${i.organisation.name}</h1>
  <p class="invitation-summary">${i.invitedBy ? html`${i.invitedBy} invited ` : 'Invited: '}<strong>${i.email}</strong> as ${humanize(i.role)}, until ${time(i.expiresAt)}.</p>
  ${body}`,
  };
}
