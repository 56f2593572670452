import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

// Server-rendered pages of the authorization endpoint: the consent form and the
// error page. No script at all; the one stylesheet is inline and allowed by its
// hash in the Content-Security-Policy. Every interpolated value is escaped.

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f5f6f8;color:#1d2330;margin:0}
main{max-width:32rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.3rem;margin:0 0 1rem}
ul{padding-left:1.2rem}
.muted{color:#5b6475;font-size:.9rem}
.warn{background:#fff7e0;border:1px solid #f0d890;border-radius:8px;padding:.6rem .8rem;font-size:.9rem}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #c5cbd6;background:#fff;cursor:pointer}
button.primary{background:#2456d8;border-color:#2456d8;color:#fff}
code{background:#f0f2f5;padding:0 .25rem;border-radius:4px;word-break:break-all}
`;

const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);

/** DEMO=true: the sign-in pages say their data is made up, like every web page (docs/web.md "Demo mode"). */
const DEMO_NOTE = '<p class="muted" data-demo-banner><strong>Demo data.</strong> This server runs in demo mode: its vendor data is simulated and made up.</p>\n';

function page(title: string, body: string, demo: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
${demo ? DEMO_NOTE : ''}${body}
</main></body>
</html>`;
}

function sendPage(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Content-Security-Policy', `default-src 'none'; style-src '${STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'`)
    .send(page(title, body, reply.server.config?.demo === true));
}

export function sendErrorPage(reply: FastifyReply, status: number, message: string) {
  return sendPage(
    reply,
    status,
    'Authorization failed',
    `<h1>Authorization failed</h1>\n<p>${escapeHtml(message)}</p>\n<p class="muted">Return to the application and try connecting again.</p>`,
  );
}

export interface ConsentView {
  clientName: string;
  redirectUri: string;
  userEmail: string;
  plan: string;
  windowDays: number | null;
  /** Hidden fields that carry the authorization request through the POST. */
  fields: Record<string, string>;
  csrfToken: string;
  action: string;
}

export function consentPage(reply: FastifyReply, v: ConsentView) {
  const hidden = Object.entries(v.fields)
    .map(([k, val]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(val)}">`)
    .join('\n');
  let target: string;
  try {
    const u = new URL(v.redirectUri);
    target = u.host ? `${u.protocol}//${u.host}` : u.protocol;
  } catch {
    target = v.redirectUri;
  }
  const window = v.windowDays === null ? 'your full history' : `the last ${v.windowDays} days`;
  return sendPage(
    reply,
    200,
    'Allow access?',
    `<h1>Allow <strong>${escapeHtml(v.clientName)}</strong> to use your account?</h1>
<p>Signed in as <strong>${escapeHtml(v.userEmail)}</strong> (${escapeHtml(v.plan)} plan).</p>
<p>The application will be able to:</p>
<ul>
<li>read incident history and maintenance of the vendors we watch, for ${escapeHtml(window)} (your plan's window);</li>
<li>make requests that count toward your plan's quota.</li>
</ul>
<p>It will not see your password, API keys, watchlist or notification settings, and cannot change anything.</p>
<p class="warn">The application named itself; we have not verified it. After you allow it, you return to <code>${escapeHtml(target)}</code>.</p>
<form method="post" action="${escapeHtml(v.action)}">
${hidden}
<input type="hidden" name="csrf_token" value="${escapeHtml(v.csrfToken)}">
<div class="actions">
<button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<p class="muted">You can disconnect the application at any time from your account.</p>`,
  );
}

export interface LoginView {
  action: string;
  returnTo: string;
  csrfToken: string;
  email?: string;
  error?: string;
}

/** The sign-in step of the authorization flow, in front of the account login. */
export function loginPage(reply: FastifyReply, status: number, v: LoginView) {
  return sendPage(
    reply,
    status,
    'Log in to continue',
    `<h1>Log in to continue</h1>
<p>An application wants to connect to your Vendor Infrastructure Status account. Log in first; you will then be asked to allow it.</p>
${v.error ? `<p class="warn">${escapeHtml(v.error)}</p>` : ''}
<form method="post" action="${escapeHtml(v.action)}">
<input type="hidden" name="return_to" value="${escapeHtml(v.returnTo)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(v.csrfToken)}">
<p><label>Email<br><input type="email" name="email" autocomplete="username" required value="${escapeHtml(v.email ?? '')}"></label></p>
<p><label>Password<br><input type="password" name="password" autocomplete="current-password" required></label></p>
<div class="actions"><button class="primary" type="submit">Log in</button></div>
</form>
<p class="muted">No account yet? Sign up in the web app first, then connect the application again.</p>`,
  );
}
