import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { getJson, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { connect, consent, REDIRECT_URI } from '../../helpers/mcp.ts';
import { send } from '../../helpers/users.ts';

// A user who holds one of every credential the service issues or stores, made
// through the real endpoints (signup, session, key, webhook, PagerDuty, feed,
// MCP OAuth), so the security tests can look for each secret where it must not be.

export const ROUTING_KEY = 'R0ut1ngKeyF0rPagerDutyTest000042';
export const OPSGENIE_KEY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const TEAMS_URL =
  'https://prod-42.westeurope.logic.azure.com:443/workflows/0a1b2c3d4e5f60718293a4b5c6d7e8f9/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=TeamsSigSecretValue123456';
export const GOOGLE_CHAT_URL = 'https://chat.googleapis.com/v1/spaces/AAAAsecurity/messages?key=AIzaSyChatKeySecurity&token=ChatTokenSecretValue987654';
export const SLACK_BOT_TOKEN = 'xoxb-5551234567-5557654321-SlackBotTokenSecret42';

export interface FullAccount {
  id: string;
  email: string;
  password: string;
  /** Cookie header: session + CSRF cookie. */
  cookie: string;
  sessionToken: string;
  csrfToken: string;
  apiKey: string;
  keyId: string;
  webhookUrl: string;
  webhookSecret: string;
  feedToken: string;
  oauth: { clientId: string; clientSecret: string; code: string; verifier: string; accessToken: string; refreshToken: string; grantId: string };
  /** Channel secrets the worker sends with: stored sealed, never in clear, by name. */
  channelSecrets: Record<string, string>;
  /** Secrets that must never be stored or logged in clear, by name. */
  hidden: Record<string, string>;
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export const cookieValue = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]!
    .slice(name.length + 1);

/** Signs up and sets up everything; `webhookUrl` must pass the app's save-time policy. */
export async function fullAccount(t: TestApp, o: { webhookUrl?: string; tag?: string } = {}): Promise<FullAccount> {
  const email = uniqueEmail(o.tag ?? 'sec');
  const password = `Pw-${randomBytes(9).toString('base64url')}-secret`;
  const signup = await fetch(`${t.url}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(signup.status, 201, await signup.clone().text());
  const id: string = (await signup.json()).account.id;
  // API keys need the plan set by API_KEY_MIN_PLAN (free by default); the webhook
  // and the other channels work on every plan.
  const sessionToken = cookieValue(signup, 'vis_session')!;
  const csrfToken = cookieValue(signup, 'vis_csrf')!;
  const cookie = `vis_session=${sessionToken}; vis_csrf=${csrfToken}`;
  const web = { cookie, origin: t.url };

  const key = await send(`${t.url}/api/v1/account/keys`, 'POST', web, { name: 'security test' });
  assert.equal(key.status, 201, JSON.stringify(key.body));
  const apiKey: string = key.body.secret;
  const headers = { 'x-api-key': apiKey };

  assert.equal((await send(`${t.api}/watchlist`, 'PUT', headers, { vendors: ['github', 'cloudflare'] })).status, 200);
  const webhookUrl = o.webhookUrl ?? 'https://hooks.example.com/security';
  const prefs = await send(`${t.api}/notification-preferences`, 'PUT', headers, {
    webhook: { enabled: true, url: webhookUrl },
    pagerduty: { enabled: true, routing_key: ROUTING_KEY },
    opsgenie: { enabled: false, api_key: OPSGENIE_KEY },
    teams: { enabled: false, webhook_url: TEAMS_URL },
    google_chat: { enabled: false, webhook_url: GOOGLE_CHAT_URL },
    rss: { enabled: true },
    in_app: { enabled: true },
  });
  assert.equal(prefs.status, 200, JSON.stringify(prefs.body));
  const webhookSecret: string = prefs.body.preferences.webhook.secret;
  assert.match(webhookSecret, /^whsec_/);
  const feedToken = /\/feeds\/([^.]+)\.rss$/.exec(prefs.body.preferences.rss.feed_url)![1]!;
  // The Slack install's bot token, as the OAuth callback stores it (the install itself: test/integration/chat-channels.test.ts).
  await t.repos.preferences.update(id, new Date(), (s) => ({
    ...s,
    channelSecrets: { ...s.channelSecrets, slackBotToken: SLACK_BOT_TOKEN },
    slackConnection: { connected: true, team: 'Security', connected_at: new Date().toISOString(), team_id: 'T0SEC', user_id: 'U0SEC', bot_user_id: 'B0SEC' },
  }));

  // MCP OAuth: a confidential client, consent with the web session, code exchange, a refresh.
  const reg = await getJson(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URI], client_name: `Assistant of ${email}` }),
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const { verifier, challenge } = pkce();
  const back = await consent(
    t.url,
    `${t.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: reg.body.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', state: 'st' })}`,
    `vis_session=${sessionToken}`,
  );
  const code = back.searchParams.get('code')!;
  const basic = `Basic ${Buffer.from(`${reg.body.client_id}:${reg.body.client_secret}`).toString('base64')}`;
  const tokenCall = (body: Record<string, string>) =>
    getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams(body),
    });
  const first = await tokenCall({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const refreshed = await tokenCall({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
  assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
  const conns = await getJson(`${t.url}/api/v1/account/connections`, { headers });
  const grantId: string = conns.body.connections[0].id;

  const oauth = {
    clientId: reg.body.client_id as string,
    clientSecret: reg.body.client_secret as string,
    code,
    verifier,
    accessToken: refreshed.body.access_token as string,
    refreshToken: refreshed.body.refresh_token as string,
    grantId,
  };
  return {
    id,
    email,
    password,
    cookie,
    sessionToken,
    csrfToken,
    apiKey,
    keyId: key.body.key.id,
    webhookUrl,
    webhookSecret,
    feedToken,
    oauth,
    channelSecrets: {
      webhookSecret,
      routingKey: ROUTING_KEY,
      opsgenieKey: OPSGENIE_KEY,
      teamsUrl: TEAMS_URL,
      teamsSig: 'TeamsSigSecretValue123456',
      googleChatUrl: GOOGLE_CHAT_URL,
      googleChatToken: 'ChatTokenSecretValue987654',
      slackBotToken: SLACK_BOT_TOKEN,
    },
    hidden: {
      password,
      sessionToken,
      apiKey,
      'apiKey without prefix': apiKey.slice(4),
      feedToken,
      clientSecret: oauth.clientSecret,
      code,
      verifier,
      accessToken: oauth.accessToken,
      refreshToken: oauth.refreshToken,
      firstAccessToken: first.body.access_token,
      firstRefreshToken: first.body.refresh_token,
    },
  };
}

/** Calls an MCP tool with a bearer token (an authenticated MCP session). */
export async function callMcpTool(t: TestApp, token: string, name: string) {
  const c = await connect(`${t.url}/mcp`, { token });
  try {
    return await c.client.callTool({ name, arguments: {} });
  } finally {
    await c.close();
  }
}

/** Everything the app logs, for grepping. */
export function logCapture() {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk) => lines.push(String(chunk)));
  return { stream, lines, text: () => lines.join('') };
}

/**
 * Sends raw bytes on one connection and collects what comes back until the
 * server closes it or `idleMs` passes without data (`firstByteMs` before the first bytes).
 */
export function rawExchange(port: number, data: string | Buffer, idleMs = 1500, firstByteMs = 15_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => done(false), idleMs);
    };
    socket.on('data', (d) => {
      text += d.toString('latin1');
      arm();
    });
    socket.on('end', () => done(true));
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
    socket.write(data);
    // The first answer may be slow on a loaded machine (files run in parallel): the idle
    // limit starts once something came back (docs/testing.md, "Tiers").
    timer = setTimeout(() => done(false), firstByteMs);
  });
}

export interface RawResponse {
  status: string;
  headers: Record<string, string>;
  body: string;
}

/** The HTTP/1.1 responses in a raw byte stream, in order (Content-Length or chunked bodies). */
export function parseResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const [status, ...lines] = raw.slice(at, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const colon = l.indexOf(':');
      headers[l.slice(0, colon).trim().toLowerCase()] = l.slice(colon + 1).trim();
    }
    at = end + 4;
    let body = '';
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', at);
        const size = Number.parseInt(raw.slice(at, lineEnd), 16);
        at = lineEnd + 2;
        if (!size) {
          at += 2;
          break;
        }
        body += raw.slice(at, at + size);
        at += size + 2;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = raw.slice(at, at + length);
      at += length;
    }
    out.push({ status: status!, headers, body });
  }
  return out;
}

/** Status lines of every HTTP response in a raw byte stream. */
export const statusLines = (raw: string) => parseResponses(raw).map((r) => r.status);

/** A plain HTTP server on `host` answering every request with `status` and `Location: location`. */
export async function startRedirector(host: string, status: number, location: string) {
  const { default: http } = await import('node:http');
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => res.writeHead(status, { location, 'content-length': '0' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
