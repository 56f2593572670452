import assert from 'node:assert/strict';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { UserPlan } from '../../src/domain/plans.ts';
import type { TestApp } from './app.ts';
import { ownerViewer } from './access.ts';

// MCP clients for tests: the SDK's own Client and Streamable HTTP transport,
// and an OAuth client provider that plays the user's browser (log in, consent)
// over plain HTTP against the real authorization endpoint.

let n = 0;
export const uniqueEmail = (tag = 'user') => `${tag}.${process.pid}.${Date.now().toString(36)}.${n++}@example.com`;
export const PASSWORD = 'correct horse battery';

export interface TestUser {
  userId: string;
  email: string;
  plan: UserPlan;
}

export async function createUser(t: TestApp, plan: UserPlan): Promise<TestUser> {
  const email = uniqueEmail(plan);
  const user = await t.app.services.accounts.createUser({ email, password: PASSWORD, plan });
  return { userId: user.id, email, plan };
}

export async function createKey(t: TestApp, u: TestUser): Promise<string> {
  return (await t.app.services.keys.create(ownerViewer(u.userId, u.plan), 'mcp test')).secret;
}

/** Logs in through the account area's login endpoint; returns the Cookie header value. */
export async function webLogin(t: TestApp, email: string): Promise<string> {
  const res = await fetch(`${t.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vis_session='));
  assert.ok(set, 'session cookie');
  // The CSRF cookie comes with the session; state-changing session calls echo it (X-CSRF-Token).
  const csrf = res.headers.getSetCookie().find((c) => c.startsWith('vis_csrf='));
  assert.ok(csrf, 'CSRF cookie');
  return `${set.split(';')[0]}; ${csrf.split(';')[0]}`;
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Response headers of the last HTTP exchange. */
  last(): Headers | null;
  close(): Promise<void>;
}

export async function connect(
  endpoint: string,
  opts: { token?: string; authProvider?: OAuthClientProvider; headers?: Record<string, string> } = {},
): Promise<Connected> {
  let lastHeaders: Headers | null = null;
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    lastHeaders = res.headers;
    return res;
  };
  const headers = { ...(opts.headers ?? {}), ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}) };
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: { headers },
    authProvider: opts.authProvider,
    fetch: recording,
  });
  const client = new Client({ name: 'vis-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, last: () => lastHeaders, close: () => client.close() };
}

export const textOf = (r: unknown) =>
  (((r as { content?: unknown }).content as { type: string; text?: string }[]) ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };
const unescape = (s: string) =>
  s.replace(/&(?:#(\d+)|(amp|lt|gt|quot));/g, (_, code: string | undefined, name: string | undefined) =>
    code ? String.fromCharCode(Number(code)) : ENTITIES[name!]!,
  );

/** The hidden fields of the first form of a page. */
export function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) out[unescape(m[1])] = unescape(m[2]);
  return out;
}

export const cookieFrom = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

/** Plays the browser on the consent page: GET it with the session, then post the decision. */
export async function consent(issuer: string, authorizeUrl: string, sessionCookie: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const page = await fetch(authorizeUrl, { headers: { cookie: sessionCookie }, redirect: 'manual' });
  assert.equal(page.status, 200, `consent page: ${page.status} ${page.headers.get('location') ?? ''}`);
  const html = await page.text();
  const csrf = cookieFrom(page, 'oauth_csrf');
  assert.ok(csrf, 'csrf cookie');
  const fields = formFields(html);
  const res = await fetch(`${issuer}/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: issuer, cookie: `${sessionCookie}; ${csrf}` },
    body: new URLSearchParams({ ...fields, decision }),
    redirect: 'manual',
  });
  assert.equal(res.status, 303, `consent post: ${res.status} ${await res.clone().text()}`);
  return new URL(res.headers.get('location')!);
}

export const REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback';

/**
 * An OAuth client provider as an MCP client implements it, keeping the registration, tokens
 * and PKCE verifier in memory. Subclasses play the user's browser in redirectToAuthorization.
 */
export abstract class MemoryOAuthProvider implements OAuthClientProvider {
  info: (OAuthClientInformationMixed & { client_id: string; client_secret?: string }) | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrls: URL[] = [];

  private readonly redirectUri: string;
  private readonly clientName: string;

  constructor(redirectUri: string, clientName: string) {
    this.redirectUri = redirectUri;
    this.clientName = clientName;
  }

  get redirectUrl() {
    return this.redirectUri;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  state() {
    return 'state-123';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info as typeof this.info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  abstract redirectToAuthorization(url: URL): Promise<void>;
}

/**
 * The "browser" is this process: redirectToAuthorization consents with the user's web
 * session over plain HTTP and keeps the code for finishAuth.
 */
export class TestOAuthProvider extends MemoryOAuthProvider {
  code: string | null = null;
  redirects: URL[] = [];

  private readonly issuer: string;
  private readonly sessionCookie: string;
  private readonly decision: 'allow' | 'deny';

  constructor(issuer: string, sessionCookie: string, decision: 'allow' | 'deny' = 'allow') {
    super(REDIRECT_URI, 'Test Assistant');
    this.issuer = issuer;
    this.sessionCookie = sessionCookie;
    this.decision = decision;
  }

  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    const back = await consent(this.issuer, url.toString(), this.sessionCookie, this.decision);
    this.redirects.push(back);
    this.code = back.searchParams.get('code');
  }
}
