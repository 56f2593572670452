import type { OrgRole } from '../../domain/org-roles.ts';
import type { SsoDomainView, SsoSettingsView } from '../../services/orgs/sso-service.ts';
import { html, type Html } from '../html.ts';
import { humanize } from '../views/format.ts';

// The team page's single sign-on section for admins (docs/teams.md, "Single sign-on"):
// the OpenID Connect connection and the e-mail domains with their TXT records. Plain
// forms posting to /team/sso…; the client secret is never shown, only whether one is set.

export interface TeamSsoData {
  settings: SsoSettingsView | null;
  domains: SsoDomainView[];
  redirectUri: string;
}

const ROLES: OrgRole[] = ['viewer', 'editor', 'admin'];

export function ssoSection(d: TeamSsoData, csrf: string): Html {
  const s = d.settings;
  const csrfField = html`<input type="hidden" name="_csrf" value="${csrf}">`;
  const checked = (on: boolean | undefined) => (on ? html` checked` : '');
  return html`<section class="panel" aria-labelledby="sso-settings-title" data-sso-settings>
    <h2 id="sso-settings-title">Single sign-on</h2>
    <p>Register this redirect URI at your identity provider: <code data-sso-redirect-uri>${d.redirectUri}</code>. Scopes: <code>openid email profile</code>.</p>
    <form method="post" action="/team/sso">
      ${csrfField}
      <div class="field">
        <label for="sso-issuer">Issuer URL</label>
        <input id="sso-issuer" name="issuer" type="url" maxlength="500" required autocomplete="off" value="${s?.issuer ?? ''}">
      </div>
      <div class="field">
        <label for="sso-client-id">Client ID</label>
        <input id="sso-client-id" name="clientId" type="text" maxlength="255" required autocomplete="off" value="${s?.clientId ?? ''}">
      </div>
      <div class="field">
        <label for="sso-client-secret">Client secret</label>
        <input id="sso-client-secret" name="clientSecret" type="password" maxlength="1000" autocomplete="off"${s ? '' : html` required`} aria-describedby="sso-secret-hint">
        <p class="field__hint" id="sso-secret-hint">${s ? `A secret is set (${s.clientSecret}); leave empty to keep it.` : 'Stored encrypted; never shown again.'}</p>
      </div>
      <div class="field">
        <label for="sso-role">Role of people joining by SSO</label>
        <select id="sso-role" name="defaultRole">${ROLES.map((r) => html`<option value="${r}"${(s?.defaultRole ?? 'viewer') === r ? html` selected` : ''}>${humanize(r)}</option>`)}</select>
      </div>
      <div class="field"><input id="sso-enabled" name="enabled" type="checkbox" value="on"${checked(s ? s.enabled : true)}> <label for="sso-enabled">Enabled</label></div>
      <div class="field"><input id="sso-required" name="ssoRequired" type="checkbox" value="on"${checked(s?.ssoRequired)}> <label for="sso-required">Require SSO for members with a verified domain (owners keep password sign-in)</label></div>
      <div class="form-actions"><button type="submit" class="button">Save single sign-on</button></div>
    </form>
    ${s ? html`<form method="post" action="/team/sso/delete" class="inline-form">${csrfField}<button type="submit" class="button button--small button--danger">Remove the connection</button></form>` : ''}
    <h3>Domains</h3>
    ${
      d.domains.length
        ? html`<ul data-sso-domains>${d.domains.map(
            (x) => html`<li data-sso-domain="${x.domain}"><strong>${x.domain}</strong>: ${
              x.verified
                ? 'verified'
                : html`not verified yet; add a TXT record <code>${x.record.name}</code> with the value <code>${x.record.value}</code>
              <form method="post" action="/team/sso/domains/${x.id}/verify" class="inline-form">${csrfField}<button type="submit" class="button button--small" aria-label="Verify ${x.domain}">Verify</button></form>`
            }
              <form method="post" action="/team/sso/domains/${x.id}/delete" class="inline-form">${csrfField}<button type="submit" class="button button--small button--danger" aria-label="Remove ${x.domain}">Remove</button></form></li>`,
          )}</ul>`
        : html`<p class="empty">No domains yet.</p>`
    }
    <form method="post" action="/team/sso/domains" class="inline-form">
      ${csrfField}
      <label for="sso-domain">E-mail domain</label>
      <input id="sso-domain" name="domain" type="text" maxlength="253" required autocomplete="off">
      <button type="submit" class="button button--small">Add domain</button>
    </form>
  </section>`;
}
