import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Plan } from '../../domain/plans.ts';
import { html, type SendStandalonePage } from '../../web/index.ts';

// Server-rendered pages of the authorization endpoint: the sign-in step, the consent form
// and the error page, in the site's layout and stylesheet (docs/mcp.md, "Rules and
// decisions"). The forms work without script; every interpolated value is escaped by `html`.

export interface ConsentView {
  clientName: string;
  redirectUri: string;
  userEmail: string;
  plan: Plan;
  windowDays: number | null;
  /** Hidden fields that carry the authorization request through the POST. */
  fields: Record<string, string>;
  csrfToken: string;
  action: string;
}

export interface LoginView {
  action: string;
  returnTo: string;
  csrfToken: string;
  email?: string;
  error?: string;
}

export interface OAuthPages {
  error(req: FastifyRequest, reply: FastifyReply, status: number, message: string): Promise<FastifyReply>;
  consent(req: FastifyRequest, reply: FastifyReply, v: ConsentView): FastifyReply;
  /** The sign-in step of the authorization flow, in front of the account login. */
  login(req: FastifyRequest, reply: FastifyReply, status: number, v: LoginView): FastifyReply;
}

const hidden = (fields: Record<string, string>) => Object.entries(fields).map(([k, val]) => html`<input type="hidden" name="${k}" value="${val}">\n`);

/** Where the browser goes after the decision, as the user can check it: scheme and host only. */
function target(redirectUri: string): string {
  try {
    const u = new URL(redirectUri);
    return u.host ? `${u.protocol}//${u.host}` : u.protocol;
  } catch {
    return redirectUri;
  }
}

/**
 * `send` renders a page in the site's layout; `accountOf` tells the navigation whether the
 * visitor of an error page is signed in.
 */
export function oauthPages(send: SendStandalonePage, accountOf: (req: FastifyRequest) => Promise<{ plan: Plan } | null>): OAuthPages {
  return {
    async error(req, reply, status, message) {
      return send(req, reply, {
        status,
        title: 'Authorization failed',
        account: await accountOf(req),
        main: html`<div class="auth-card panel">
<h1 class="page-title">Authorization failed</h1>
<p>${message}</p>
<p class="muted">Return to the application and try connecting again.</p>
</div>`,
      });
    },

    consent(req, reply, v) {
      const window = v.windowDays === null ? 'your full history' : `the last ${v.windowDays} days`;
      return send(req, reply, {
        status: 200,
        title: 'Allow access?',
        account: { plan: v.plan },
        main: html`<div class="auth-card panel">
<h1 class="page-title">Allow <strong>${v.clientName}</strong> to use your account?</h1>
<p>Signed in as <strong>${v.userEmail}</strong> (${v.plan} plan).</p>
<p>The application will be able to:</p>
<ul>
<li>read incident history and maintenance of the vendors we watch, for ${window} (your plan's window);</li>
<li>make requests that count toward your plan's quota.</li>
</ul>
<p>It will not see your password, API keys, watchlist or notification settings, and cannot change anything.</p>
<p class="notice notice--warn">The application named itself; we have not verified it. After you allow it, you return to <code>${target(v.redirectUri)}</code>.</p>
<form method="post" action="${v.action}">
${hidden(v.fields)}<input type="hidden" name="csrf_token" value="${v.csrfToken}">
<div class="form-actions">
<button class="button" type="submit" name="decision" value="allow">Allow</button>
<button class="button button--secondary" type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<p class="muted">You can disconnect the application at any time from your account.</p>
</div>`,
      });
    },

    login(req, reply, status, v) {
      return send(req, reply, {
        status,
        title: 'Log in to continue',
        account: null,
        main: html`<div class="auth-card panel">
<h1 class="page-title">Log in to continue</h1>
<p>An application wants to connect to your Vendor Infrastructure Status account. Log in first; you will then be asked to allow it.</p>
${v.error ? html`<p class="notice notice--error" role="alert">${v.error}</p>` : ''}
<form method="post" action="${v.action}">
<input type="hidden" name="return_to" value="${v.returnTo}">
<input type="hidden" name="csrf_token" value="${v.csrfToken}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${v.email ?? ''}">
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
</div>
<button class="button" type="submit">Log in</button>
</form>
<p class="muted">No account yet? <a href="/signup">Sign up</a> in the web app first, then connect the application again.</p>
</div>`,
      });
    },
  };
}
