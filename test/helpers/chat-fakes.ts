import type { ReceivedRequest, Reply } from './receivers.ts';

// Local fakes of the chat and paging APIs of docs/alerts.md, answering as the
// real services do (shapes from their API references): Slack OAuth v2 and the
// Web API methods we call, Teams Workflows webhooks, Google Chat space webhooks
// and the Opsgenie Alert API v2. Each refuses what the real one refuses (bad
// credentials, bodies missing what the service requires).

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

/** Settings of an app whose Slack app (client id/secret) and Slack API are the fake at `slackUrl`. */
export function slackAppEnv(slackUrl: string, app: { clientId: string; clientSecret: string }): Record<string, string> {
  return {
    SLACK_CLIENT_ID: app.clientId,
    SLACK_CLIENT_SECRET: app.clientSecret,
    SLACK_API_URL: `${slackUrl}/api/`,
    SLACK_OAUTH_URL: `${slackUrl}/oauth/v2/authorize`,
  };
}

/** A Slack workspace: one app install (client credentials + code), its bot token, members and channels. */
export function slackWorkspace(o: {
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: () => string;
  botToken: string;
  team: { id: string; name: string };
  installer: string;
  channels: string[];
}) {
  let ts = 1_700_000_000;
  const revoked = new Set<string>();
  const state = {
    revoked,
    messages: [] as { channel: string; ts: string; thread_ts: string | null; text: string; blocks: unknown[] }[],
    updates: [] as { channel: string; ts: string; text: string }[],
  };
  const reply = (req: ReceivedRequest): Reply => {
    const ok = (body: object) => json(200, { ok: true, ...body });
    const err = (error: string) => json(200, { ok: false, error });
    const method = req.path.replace(/^\/api\//, '').split('?')[0]!;
    const params = new URLSearchParams(req.body);
    if (method === 'oauth.v2.access') {
      const basic = `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== basic) return err('bad_client_secret');
      if (params.get('redirect_uri') !== o.redirectUri()) return err('bad_redirect_uri');
      if (params.get('code') !== o.code) return err('invalid_code');
      return ok({
        access_token: o.botToken,
        token_type: 'bot',
        scope: 'chat:write,chat:write.public,im:write,users:read,users:read.email',
        bot_user_id: 'UBOT0001',
        app_id: 'A0KRD7HC3',
        team: o.team,
        enterprise: null,
        is_enterprise_install: false,
        authed_user: { id: o.installer },
      });
    }
    if (req.headers.authorization !== `Bearer ${o.botToken}` || revoked.has(o.botToken)) return err('invalid_auth');
    switch (method) {
      case 'auth.revoke':
        revoked.add(o.botToken);
        return ok({ revoked: true });
      case 'conversations.open': {
        const user = params.get('users') ?? '';
        return user === o.installer ? ok({ channel: { id: `D${user.slice(1)}` } }) : err('user_not_found');
      }
      case 'chat.postMessage': {
        const channel = params.get('channel') ?? '';
        if (!channel.startsWith('D') && !o.channels.includes(channel)) return err('channel_not_found');
        if (!params.get('text')) return err('no_text');
        const threadTs = params.get('thread_ts');
        if (threadTs && !state.messages.some((m) => m.ts === threadTs && m.channel === channel)) return err('thread_not_found');
        const at = `${++ts}.000100`;
        state.messages.push({ channel, ts: at, thread_ts: threadTs, text: params.get('text')!, blocks: JSON.parse(params.get('blocks') ?? '[]') });
        return ok({ channel, ts: at, message: { text: params.get('text') } });
      }
      case 'chat.update': {
        const channel = params.get('channel') ?? '';
        const at = params.get('ts') ?? '';
        if (!state.messages.some((m) => m.ts === at && m.channel === channel)) return err('message_not_found');
        state.updates.push({ channel, ts: at, text: params.get('text') ?? '' });
        return ok({ channel, ts: at, text: params.get('text') });
      }
      default:
        return err('unknown_method');
    }
  };
  return { reply, state };
}

/** A Teams Workflows trigger: 202 with no body; the flow needs `attachments` of Adaptive Cards. */
export function teamsWorkflowReply(req: ReceivedRequest): Reply {
  if (req.method !== 'POST' || !new URL(req.path, 'http://x').searchParams.get('sig')) return json(401, { error: { code: 'DirectApiAuthorizationRequired' } });
  let body: any;
  try {
    body = JSON.parse(req.body);
  } catch {
    return json(400, { error: { code: 'InvalidRequestContent', message: 'The request content is not valid JSON.' } });
  }
  const cards = Array.isArray(body?.attachments) ? body.attachments : null;
  if (
    body?.type !== 'message' ||
    !cards?.length ||
    !cards.every((a: any) => a.contentType === 'application/vnd.microsoft.card.adaptive' && a.content?.type === 'AdaptiveCard')
  ) {
    return json(400, { error: { code: 'InvalidTemplate', message: "'attachments' is of type 'Null'" } });
  }
  return { status: 202, body: '' };
}

/** A Google Chat space webhook: key and token in the query; answers the created Message with its thread. */
export function googleChatReply(o: { key: string; token: string }) {
  const threads = new Map<string, string>();
  let n = 0;
  return (req: ReceivedRequest): Reply => {
    const url = new URL(req.path, 'http://x');
    if (url.searchParams.get('key') !== o.key || url.searchParams.get('token') !== o.token) {
      return json(401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    }
    let body: any;
    try {
      body = JSON.parse(req.body);
    } catch {
      return json(400, { error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } });
    }
    if (!body.text && !body.cardsV2) return json(400, { error: { code: 400, message: 'Message cannot be empty.', status: 'INVALID_ARGUMENT' } });
    const space = url.pathname.split('/')[3];
    const key = body.thread?.threadKey;
    // Without messageReplyOption every message starts a new thread (the default).
    const reply = url.searchParams.get('messageReplyOption') === 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' && key;
    let thread = reply ? threads.get(key) : undefined;
    if (!thread) {
      thread = `spaces/${space}/threads/t${++n}`;
      if (reply) threads.set(key, thread);
    }
    return json(200, { name: `spaces/${space}/messages/m${++n}`, text: body.text, thread: { name: thread }, createTime: new Date().toISOString() });
  };
}

/**
 * Opsgenie Alert API v2: GenieKey auth; create, add note, close by alias; 202 + SuccessResponse.
 * JSM Operations serves the same under `prefix` `/jsm/ops/integration`.
 */
export function opsgenieReply(o: { apiKey: string; prefix?: string }) {
  const base = `${o.prefix ?? ''}/v2/alerts`;
  const alerts = new Map<string, { message: string; priority: string; notes: string[]; status: 'open' | 'closed' }>();
  let n = 0;
  const accepted = () => json(202, { result: 'Request will be processed', took: 0.01, requestId: `req-${++n}` });
  const reply = (req: ReceivedRequest): Reply => {
    if (req.headers.authorization !== `GenieKey ${o.apiKey}`) return json(401, { message: 'Could not authenticate', took: 0, requestId: `req-${++n}` });
    const url = new URL(req.path, 'http://x');
    const body = JSON.parse(req.body || '{}');
    if (req.method === 'POST' && url.pathname === base) {
      if (typeof body.message !== 'string' || !body.message || body.message.length > 130) {
        return json(422, {
          message: 'Request body is not processable. Please check the errors.',
          errors: { message: 'Message can not be empty.' },
          took: 0,
          requestId: `req-${++n}`,
        });
      }
      const alias = body.alias ?? `id-${n}`;
      if (!alerts.has(alias) || alerts.get(alias)!.status === 'closed')
        alerts.set(alias, { message: body.message, priority: body.priority ?? 'P3', notes: [], status: 'open' });
      return accepted();
    }
    const m = url.pathname.startsWith(`${base}/`) ? /^([^/]+)\/(notes|close)$/.exec(url.pathname.slice(base.length + 1)) : null;
    if (req.method === 'POST' && m && url.searchParams.get('identifierType') === 'alias') {
      const alert = alerts.get(decodeURIComponent(m[1]!));
      if (!alert) return json(404, { message: 'Alert does not exist', took: 0, requestId: `req-${++n}` });
      if (m[2] === 'notes') {
        if (!body.note) return json(422, { message: 'Note can not be empty', took: 0, requestId: `req-${++n}` });
        alert.notes.push(body.note);
      } else alert.status = 'closed';
      return accepted();
    }
    return json(404, { message: 'Not found', took: 0, requestId: `req-${++n}` });
  };
  return { reply, alerts };
}
