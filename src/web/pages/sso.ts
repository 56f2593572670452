import { html } from '../html.ts';
import type { Page } from '../layout.ts';

// Single sign-on pages (docs/teams.md, "Single sign-on"): the form on the log-in page,
// the hand-over to the identity provider, and the refusal page with its reason.

/** "Sign in with SSO" under the password form: a plain form, no script needed. */
export function ssoForm(next: string, csrf: string) {
  return html`<section class="sso-signin" aria-labelledby="sso-title">
    <h2 id="sso-title">Sign in with SSO</h2>
    <p>Your organisation uses single sign-on? Enter your work e-mail address and continue at its identity provider.</p>
    <form method="post" action="/auth/sso">
      <input type="hidden" name="_csrf" value="${csrf}">
      <input type="hidden" name="next" value="${next}">
      <div class="field">
        <label for="sso-email">Work e-mail address</label>
        <input id="sso-email" name="email" type="email" autocomplete="email" required maxlength="254">
      </div>
      <button type="submit" class="button">Sign in with SSO</button>
    </form>
  </section>`;
}

/**
 * The hand-over: a link to the provider that the page's module follows at once. A form
 * cannot redirect there itself: the site's `form-action 'self'` policy covers redirects too.
 */
export function ssoContinuePage(url: string): Page {
  const host = new URL(url).host;
  return {
    title: 'Continue to your identity provider',
    scripts: ['js/sso.js'],
    main: html`<div class="auth-card panel">
    <h1 class="page-title">Continue to your identity provider</h1>
    <p><a class="button" href="${url}" data-sso-continue>Continue to ${host}</a></p>
  </div>`,
  };
}

export function ssoErrorPage(status: number, reason: string): Page {
  return {
    title: 'Single sign-on failed',
    status,
    main: html`<div class="auth-card panel">
    <h1 class="page-title">Single sign-on failed</h1>
    <p data-sso-reason>${reason}</p>
    <p><a href="/login">Back to the sign-in page</a></p>
  </div>`,
  };
}
