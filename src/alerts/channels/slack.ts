import { threadKey } from './channel.ts';
import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import { alertText, clip } from '../../domain/alert-text.ts';
import { escapeText } from '../../domain/html-escape.ts';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import type { AlertThreadsRepository } from '../../store/repositories/alert-threads-repository.ts';
import type { Clock } from '../../domain/clock.ts';
import { type Channel, describeError, failed, type SendOutcome, sent, type Target } from './channel.ts';

// Slack through the Web API as the bot of the workspace the user installed the
// app in ("Add to Slack", docs/alerts.md "Slack"), or the server's own bot
// (SLACK_BOT_TOKEN). To a channel the user picked, or as a DM to the member who
// installed it (users.lookupByEmail when no member id is known, then
// conversations.open). The first event of an incident posts a message; later
// ones reply in its thread (`thread_ts`) and update it (`chat.update`) so the
// top message always shows the current state. The client does not retry by
// itself (retries belong to the delivery schedule) and reports rate limits
// instead of waiting, so a 429's Retry-After becomes the next attempt time.

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
  'not_in_channel',
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
    ...(t.affects ? [{ type: 'mrkdwn', text: clip(`*Services*\n${e(t.affects)}`, 2000) }] : []),
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

/** The workspace removed the app or the token: the user's Slack alerts are switched off until they reinstall. */
const TOKEN_GONE = new Set(['token_revoked', 'invalid_auth', 'account_inactive', 'token_expired']);

/** Slack mrkdwn control characters in upstream text. */
const escapeMrkdwn = escapeText;

/** A URL inside `<url|label>`: `|` would end it early, so it is percent-encoded; `&<>` escaped. */
const slackLinkTarget = (url: string) => escapeMrkdwn(url.replace(/\|/g, '%7C'));

/** Thread of an incident: one per vendor record; an incident that confirmed a signal continues the signal's. */
const threadEntity = (d: Delivery) => `${d.vendor}:${d.threadEntity ?? d.entityId}`;

/** Clients by bot token, so a burst of alerts for one workspace reuses one. */
const MAX_CLIENTS = 1_000;

export function slackChannel(o: {
  /** SLACK_BOT_TOKEN: used for users without an install of their own. */
  token: string | null;
  apiUrl: string;
  timeoutMs: number;
  threads: AlertThreadsRepository;
  clock: Clock;
}): Channel<SlackTarget> {
  const clients = new Map<string, WebClient>();
  const clientFor = (token: string) => {
    let c = clients.get(token);
    if (!c) {
      if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
      c = new WebClient(token, {
        slackApiUrl: o.apiUrl,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: o.timeoutMs,
        logLevel: LogLevel.ERROR,
      });
      clients.set(token, c);
    }
    return c;
  };
  // Member ids found by e-mail, so a burst of alerts looks each user up once.
  const members = new Map<string, { id: string; until: number }>();

  async function memberId(client: WebClient, target: SlackTarget): Promise<string> {
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

  async function conversationOf(client: WebClient, target: SlackTarget): Promise<string> {
    if (target.conversation) return target.conversation;
    const open = await client.conversations.open({ users: await memberId(client, target) });
    const id = open.channel?.id;
    if (!id) throw new Error('conversations.open returned no channel');
    return id;
  }

  return {
    async send(d, target, _signal): Promise<SendOutcome> {
      const token = target.token ?? o.token;
      if (!token) return failed('Slack is not connected: install the app in a workspace', { permanent: true });
      const client = clientFor(token);
      try {
        const channel = await conversationOf(client, target);
        const message = { ...slackMessage(d), unfurl_links: false, unfurl_media: false };
        const thread = d.isTest ? null : await o.threads.get(d.orgId, threadKey(d), threadEntity(d));
        if (thread && thread.conversation === channel) {
          await client.chat.postMessage({ channel, thread_ts: thread.ref, ...message } as never);
          // The top message shows the current state; an edit that fails (too old, deleted) loses nothing.
          await client.chat.update({ channel, ts: thread.ref, ...slackMessage(d) } as never).catch(() => undefined);
          return sent(200);
        }
        const res = await client.chat.postMessage({ channel, ...message } as never);
        if (!d.isTest && res.ts) {
          // Sent either way: a thread that could not be recorded only means the next event posts anew.
          await o.threads
            .save(d.orgId, threadKey(d), threadEntity(d), { conversation: res.channel ?? channel, ref: res.ts }, o.clock.now())
            .catch(() => undefined);
        }
        return sent(200);
      } catch (err) {
        const e = err as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number; permanent?: boolean };
        if (e.code === ErrorCode.RateLimitedError) {
          return failed('rate limited (429)', { statusCode: 429, retryAfterMs: (e.retryAfter ?? 30) * 1000 });
        }
        if (e.code === ErrorCode.PlatformError) {
          const code = e.data?.error ?? 'unknown_error';
          if (target.token && TOKEN_GONE.has(code)) {
            return failed(`Slack error: ${code} (the workspace token no longer works: Slack alerts switched off; reinstall the app)`, {
              statusCode: 200,
              permanent: true,
              disableChannel: true,
            });
          }
          return failed(`Slack error: ${code}`, { statusCode: 200, permanent: PERMANENT.has(code) });
        }
        if (e.code === ErrorCode.HTTPError) return failed(`HTTP ${e.statusCode ?? '?'}`, { statusCode: e.statusCode ?? null });
        return failed(describeError(err), { permanent: Boolean(e.permanent) });
      }
    },
  };
}
