import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// Local receivers speaking the wire formats of the alert channels: a plain HTTP
// endpoint (webhooks), PagerDuty Events API v2, the Slack Web API methods we
// call, and an SMTP server. Each records what it received; tests decide the answers.

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (a hanging receiver). */
  hang?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface HttpReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Decides the answer of each request; default 204. */
  reply: (req: ReceivedRequest, n: number) => Reply;
  close(): Promise<void>;
}

export async function startReceiver(reply: HttpReceiver['reply'] = () => ({ status: 204 })): Promise<HttpReceiver> {
  const sockets = new Set<import('node:net').Socket>();
  const r: HttpReceiver = {
    url: '',
    port: 0,
    requests: [],
    reply,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      r.requests.push(rec);
      const answer = r.reply(rec, r.requests.length);
      if (answer.hang) return;
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  return r;
}

/** PagerDuty Events API v2 at POST /v2/enqueue: 202 with the dedup key, 400 for an invalid event. */
export function pagerDutyReply(req: ReceivedRequest): Reply {
  if (req.method !== 'POST' || req.path !== '/v2/enqueue') return { status: 404, body: '{}' };
  let event: any;
  try {
    event = JSON.parse(req.body);
  } catch {
    return { status: 400, body: JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid JSON'] }) };
  }
  const errors: string[] = [];
  if (typeof event.routing_key !== 'string' || event.routing_key.length !== 32) errors.push("'routing_key' is invalid");
  if (!['trigger', 'acknowledge', 'resolve'].includes(event.event_action)) errors.push("'event_action' is invalid");
  if (event.event_action !== 'trigger' && !event.dedup_key) errors.push("'dedup_key' is required");
  if (event.event_action === 'trigger') {
    const p = event.payload ?? {};
    if (!p.summary || p.summary.length > 1024) errors.push("'payload.summary' is invalid");
    if (!p.source) errors.push("'payload.source' is missing");
    if (!['critical', 'error', 'warning', 'info'].includes(p.severity)) errors.push("'payload.severity' is invalid");
  }
  if (event.dedup_key && event.dedup_key.length > 255) errors.push("'dedup_key' is too long");
  if (errors.length) return { status: 400, body: JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors }) };
  return { status: 202, body: JSON.stringify({ status: 'success', message: 'Event processed', dedup_key: event.dedup_key ?? 'generated' }) };
}

/** Slack Web API: form-encoded calls with a bearer token, 200 + {ok} answers (errors too). */
export function slackReply(o: { token: string; members: Record<string, string> }) {
  return (req: ReceivedRequest): Reply => {
    const ok = (body: object) => ({ status: 200, body: JSON.stringify({ ok: true, ...body }) });
    const err = (error: string) => ({ status: 200, body: JSON.stringify({ ok: false, error }) });
    if (req.headers.authorization !== `Bearer ${o.token}`) return err('invalid_auth');
    const params = new URLSearchParams(req.body);
    const method = req.path.replace(/^\/api\//, '');
    switch (method) {
      case 'users.lookupByEmail': {
        const id = o.members[params.get('email') ?? ''];
        return id ? ok({ user: { id, team_id: 'T1', profile: { email: params.get('email') } } }) : err('users_not_found');
      }
      case 'conversations.open': {
        const user = params.get('users') ?? '';
        return Object.values(o.members).includes(user) ? ok({ channel: { id: `D${user}` } }) : err('user_not_found');
      }
      case 'chat.postMessage': {
        const channel = params.get('channel') ?? '';
        if (!channel.startsWith('D')) return err('channel_not_found');
        if (!params.get('text') && !params.get('blocks')) return err('no_text');
        return ok({ channel, ts: `${Date.now() / 1000}`, message: { text: params.get('text') } });
      }
      default:
        return err('unknown_method');
    }
  };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export async function startSmtp(o: { rejectRcpt?: (to: string) => boolean } = {}): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (o.rejectRcpt?.(address.address)) return cb(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
