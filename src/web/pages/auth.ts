import { html } from '../html.ts';
import type { Page } from '../layout.ts';
import { ssoForm } from './sso.ts';

// Signup and login forms. The ES module (auth.js) posts them as JSON to the
// auth API with the CSRF token and follows `next` (a local path only).

/**
 * A safe local redirect target: an absolute path on this site, never `//host` or a URL.
 * Visible ASCII only (paths we link to are percent-encoded): a Location header
 * cannot carry control characters, and others would fail the response.
 */
export function localPath(next: unknown, fallback = '/account'): string {
  if (typeof next !== 'string' || next.length > 500) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[^\u0021-\u007e]/.test(next)) return fallback;
  return next;
}

export function signupPage(next: string, minPasswordLength: number): Page {
  return {
    title: 'Sign up',
    scripts: ['js/auth.js'],
    main: html`<div class="auth-card panel">
    <h1 class="page-title">Create an account</h1>
    <noscript><p class="notice notice--warn">Signing up needs JavaScript.</p></noscript>
    <p>Free accounts get an API key, a watchlist of up to 10 vendors and alerts on every channel.</p>
    <form method="post" action="/api/v1/auth/signup" data-auth-form data-next="${next}" novalidate>
      <p class="form-error" data-form-error role="alert" hidden></p>
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" aria-describedby="email-error">
        <p class="form-error" id="email-error" data-field-error="email" hidden></p>
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${minPasswordLength}" maxlength="256" aria-describedby="password-hint password-error">
        <p class="field__hint" id="password-hint">At least ${minPasswordLength} characters, not a common or easily guessed password.</p>
        <p class="form-error" id="password-error" data-field-error="password" hidden></p>
      </div>
      <button type="submit" class="button" disabled data-script-enables>Create account</button>
    </form>
    <p>Already have an account? <a href="/login${next !== '/account' ? `?next=${encodeURIComponent(next)}` : ''}">Log in</a></p>
  </div>`,
  };
}

export function loginPage(next: string, csrf: string): Page {
  return {
    title: 'Log in',
    scripts: ['js/auth.js'],
    main: html`<div class="auth-card panel">
    <h1 class="page-title">Log in</h1>
    <noscript><p class="notice notice--warn">Logging in needs JavaScript.</p></noscript>
    <form method="post" action="/api/v1/auth/login" data-auth-form data-next="${next}" novalidate>
      <p class="form-error" data-form-error role="alert" hidden></p>
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" aria-describedby="email-error">
        <p class="form-error" id="email-error" data-field-error="email" hidden></p>
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256" aria-describedby="password-error">
        <p class="form-error" id="password-error" data-field-error="password" hidden></p>
      </div>
      <button type="submit" class="button" disabled data-script-enables>Log in</button>
    </form>
    <p>No account yet? <a href="/signup${next !== '/account' ? `?next=${encodeURIComponent(next)}` : ''}">Sign up</a></p>
    ${ssoForm(next, csrf)}
  </div>`,
  };
}
