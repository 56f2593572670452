import { html } from '../html.ts';
import type { Page } from '../layout.ts';

// The page a confirmation link opens (docs/alerts.md "Proven addresses"). Opening
// it changes nothing: mail scanners that fetch links must not confirm for the
// owner. The button posts the token back, which confirms (single use).

/** `csrfToken`: a signed-in visitor's POST carries the session, so it needs the form token (docs/web.md). */
export function confirmEmailPage(token: string, csrfToken: string): Page {
  return {
    title: 'Confirm e-mail address',
    main: html`<div class="auth-card panel">
    <h1 class="page-title">Confirm this address for alerts</h1>
    <p>Someone asked to receive vendor status alerts at this address. Confirm only if that was you.</p>
    <form method="post" action="/confirm-email">
      <input type="hidden" name="token" value="${token}">
      <input type="hidden" name="_csrf" value="${csrfToken}">
      <button type="submit" class="button">Confirm</button>
    </form>
  </div>`,
  };
}

export function emailConfirmedPage(address: string | null): Page {
  if (address === null) {
    return {
      title: 'Link not valid',
      status: 400,
      main: html`<h1 class="page-title">This link is not valid</h1>
  <p>It was used already, has expired, or the address was changed since. Save the address again in your notification settings to get a new link.</p>
  <p><a href="/account">Notification settings</a></p>`,
    };
  }
  return {
    title: 'Address confirmed',
    main: html`<h1 class="page-title">Address confirmed</h1>
  <p>Alerts can now be sent to ${address}.</p>
  <p><a href="/account">Notification settings</a></p>`,
  };
}
