import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import { alertText, clip } from '../message.ts';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { type Channel, describeError, failed, type SendOutcome, sent, type Target } from './channel.ts';

// Slack direct messages through the Web API as the service's bot:
// users.lookupByEmail (when the connection did not store the member id), then
// conversations.open + chat.postMessage with a Block Kit message. The client
// does not retry by itself (retries belong to the delivery schedule) and
// reports rate limits instead of waiting, so a 429's Retry-After becomes the
// delivery's next attempt time.

type SlackTarget = Extract<Target, { channel: 'slack' }>;

/** Errors retrying cannot fix: the token, the scopes or the recipient are wrong. */
const PERMANENT = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'missing_scope',
  'users_not_found',
  'user_not_found',
  'user_not_visible',
  'user_disabled',
  'channel_not_found',
  'is_archived',
  'msg_too_long',
  'no_text',
  'invalid_blocks',
  'cannot_dm_bot',
]);

export function slackMessage(d: Delivery): { text: string; blocks: unknown[] } {
  const t = alertText(d);
  // Every mrkdwn string escapes the upstream's text (`&`, `<`, `>`), so a title or a
  // component name cannot open a link or a mention such as <!channel> (docs/security.md).
  const e = escapeMrkdwn;
  const text = clip(e(`${t.headline}: ${t.title}${t.status ? ` (${t.status})` : ''}`), 3000);
  const fields = [
    { type: 'mrkdwn', text: `*Status*\n${e(t.status || '-')}` },
    { type: 'mrkdwn', text: `*Impact*\n${e(t.impact)}` },
    ...(t.components.length ? [{ type: 'mrkdwn', text: clip(`*Components*\n${e(t.components.join(', '))}`, 2000) }] : []),
  ];
  const link = t.url ? slackLinkTarget(t.url) : null;
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(t.headline, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: clip(`*${link ? `<${link}|${e(t.title)}>` : e(t.title)}*`, 3000) }, fields },
  ];
  if (t.latest) blocks.push({ type: 'section', text: { type: 'plain_text', text: clip(t.latest, 3000), emoji: false } });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: clip(e(`${d.eventType} · ${d.occurredAt}`), 300) }] });
  return { text, blocks };
}

/** Slack mrkdwn control characters in upstream text. */
const escapeMrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A URL inside `<url|label>`: `|` would end it early, so it is percent-encoded; `&<>` escaped. */
const slackLinkTarget = (url: string) => escapeMrkdwn(url.replace(/\|/g, '%7C'));

export function slackChannel(o: { token: string; apiUrl: string; timeoutMs: number }): Channel<SlackTarget> {
  const client = new WebClient(o.token, {
    slackApiUrl: o.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: o.timeoutMs,
    logLevel: LogLevel.ERROR,
  });
  // Member ids found by e-mail, so a burst of alerts looks each user up once.
  const members = new Map<string, { id: string; until: number }>();

  async function memberId(target: SlackTarget): Promise<string> {
    if (target.slackUserId) return target.slackUserId;
    if (!target.email) throw Object.assign(new Error('no Slack member id or e-mail address'), { permanent: true });
    const cached = members.get(target.email);
    if (cached && cached.until > Date.now()) return cached.id;
    const res = await client.users.lookupByEmail({ email: target.email });
    const id = res.user?.id;
    if (!id) throw new Error('users.lookupByEmail returned no user');
    members.set(target.email, { id, until: Date.now() + 600_000 });
    return id;
  }

  return {
    async send(d, target, _signal): Promise<SendOutcome> {
      try {
        const user = await memberId(target);
        const open = await client.conversations.open({ users: user });
        const channel = open.channel?.id;
        if (!channel) return failed('conversations.open returned no channel');
        await client.chat.postMessage({ channel, ...slackMessage(d) } as never);
        return sent(200);
      } catch (err) {
        const e = err as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number; permanent?: boolean };
        if (e.code === ErrorCode.RateLimitedError) {
          return failed('rate limited (429)', { statusCode: 429, retryAfterMs: (e.retryAfter ?? 30) * 1000 });
        }
        if (e.code === ErrorCode.PlatformError) {
          const code = e.data?.error ?? 'unknown_error';
          return failed(`Slack error: ${code}`, { statusCode: 200, permanent: PERMANENT.has(code) });
        }
        if (e.code === ErrorCode.HTTPError) return failed(`HTTP ${e.statusCode ?? '?'}`, { statusCode: e.statusCode ?? null });
        return failed(describeError(err), { permanent: Boolean(e.permanent) });
      }
    },
  };
}
