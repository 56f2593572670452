// Slack OAuth v2 for the "Add to Slack" install (docs/alerts.md, "Slack"): the
// authorize URL the browser is sent to, the code exchange (`oauth.v2.access`,
// client credentials in HTTP Basic as Slack prefers) and the token revocation on
// uninstall (`auth.revoke`). Slack answers failures as HTTP 200 with
// `{"ok": false, "error": …}`.

import { type SlackInstall, type SlackOAuth, SlackOAuthError } from '../domain/slack-install.ts';

/** Bot scopes: post (also in public channels without joining), open DMs, find members by e-mail. */
export const SLACK_BOT_SCOPES = ['chat:write', 'chat:write.public', 'im:write', 'users:read', 'users:read.email'];

export interface SlackOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** https://slack.com/oauth/v2/authorize (SLACK_OAUTH_URL). */
  authorizeUrl: string;
  /** https://slack.com/api/ with its slash (SLACK_API_URL). */
  apiUrl: string;
  timeoutMs: number;
}

export function slackOAuth(o: SlackOAuthOptions): SlackOAuth {
  // biome-ignore lint/suspicious/noExplicitAny: Slack's answers differ per method; callers read the fields they need
  async function call(method: string, form: Record<string, string>, auth: string): Promise<Record<string, any>> {
    const res = await fetch(`${o.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth },
      body: new URLSearchParams(form),
      redirect: 'error',
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    if (res.status === 429) throw new SlackOAuthError('rate_limited');
    if (!res.ok) throw new SlackOAuthError(`http_${res.status}`);
    // biome-ignore lint/suspicious/noExplicitAny: as call() above
    const body = (await res.json().catch(() => null)) as Record<string, any> | null;
    if (!body || typeof body !== 'object') throw new SlackOAuthError('invalid_response');
    if (body.ok !== true) throw new SlackOAuthError(typeof body.error === 'string' ? body.error.slice(0, 60) : 'unknown_error');
    return body;
  }
  return {
    authorizeUrl(state: string, redirectUri: string): string {
      const u = new URL(o.authorizeUrl);
      u.searchParams.set('client_id', o.clientId);
      u.searchParams.set('scope', SLACK_BOT_SCOPES.join(','));
      u.searchParams.set('redirect_uri', redirectUri);
      u.searchParams.set('state', state);
      return u.toString();
    },

    async exchange(code: string, redirectUri: string): Promise<SlackInstall> {
      const basic = `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64')}`;
      const b = await call('oauth.v2.access', { code, redirect_uri: redirectUri }, basic);
      const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
      const token = str(b.access_token);
      if (!token) throw new SlackOAuthError('no_access_token');
      // Org-wide (Enterprise Grid) installs have no `team`: the enterprise names the install.
      const org = b.team ?? b.enterprise ?? null;
      return { accessToken: token, botUserId: str(b.bot_user_id), teamId: str(org?.id), teamName: str(org?.name), userId: str(b.authed_user?.id) };
    },

    /** Revokes a bot token; a token Slack no longer knows counts as revoked. */
    async revoke(token: string): Promise<void> {
      try {
        await call('auth.revoke', {}, `Bearer ${token}`);
      } catch (err) {
        if (err instanceof SlackOAuthError && ['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed'].includes(err.code)) return;
        throw err;
      }
    },
  };
}
