import type { TestApp } from './app.ts';
import { send } from './users.ts';
import type { TestIdp } from './oidc-idp.ts';

// Single sign-on in tests without a browser: a settable TXT resolver, setting up an
// organisation's connection and domain through the REST API, and a sign-in that follows
// the redirects through the test identity provider (test/helpers/oidc-idp.ts) with a
// cookie jar per site, as a browser would.

/** TXT answers by name; a name not set answers nothing. */
export function txtRecords() {
  const records = new Map<string, string[][]>();
  return {
    records,
    resolveTxt: async (name: string) => records.get(name) ?? [],
  };
}

const s = (t: TestApp, cookie: string) => ({ cookie, origin: t.url });

/** Connection + one verified domain for `orgId`, as its admin (`cookie`). */
export async function setUpSso(
  t: TestApp,
  idp: TestIdp,
  cookie: string,
  orgId: string,
  domain: string,
  txt: Map<string, string[][]>,
  extra: { defaultRole?: string; ssoRequired?: boolean } = {},
) {
  const put = await send(`${t.url}/api/v1/orgs/${orgId}/sso`, 'PUT', s(t, cookie), {
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    defaultRole: extra.defaultRole ?? 'editor',
    ssoRequired: extra.ssoRequired ?? false,
    enabled: true,
  });
  if (put.status !== 200) throw new Error(`PUT sso: ${put.status} ${JSON.stringify(put.body)}`);
  const added = await send(`${t.url}/api/v1/orgs/${orgId}/sso/domains`, 'POST', s(t, cookie), { domain });
  if (added.status !== 201) throw new Error(`add domain: ${added.status} ${JSON.stringify(added.body)}`);
  txt.set(added.body.domain.record.name, [[added.body.domain.record.value]]);
  const verified = await send(`${t.url}/api/v1/orgs/${orgId}/sso/domains/${added.body.domain.id}/verify`, 'POST', s(t, cookie));
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  return { domainId: added.body.domain.id as string };
}

/** Cookies of one site, from Set-Cookie headers. */
export class Jar {
  cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1);
      const expired = attrs.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface Started {
  status: number;
  html: string;
  /** The authorization URL the page hands over to (null when refused). */
  authorizationUrl: string | null;
}

const unescape = (v: string) =>
  v
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Posts the log-in page's SSO form (with its CSRF token) as a browser of `jar`. */
export async function startSso(t: TestApp, jar: Jar, email: string, next = '/account'): Promise<Started> {
  if (!jar.cookies.has('vis_csrf')) jar.take(await fetch(`${t.url}/login`, { headers: { cookie: jar.header() } }));
  const res = await fetch(`${t.url}/auth/sso`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url, cookie: jar.header() },
    body: new URLSearchParams({ _csrf: jar.cookies.get('vis_csrf') ?? '', email, next }).toString(),
  });
  jar.take(res);
  const html = await res.text();
  const m = /href="([^"]+)" data-sso-continue/.exec(html);
  return { status: res.status, html, authorizationUrl: m ? unescape(m[1]!) : null };
}

/** Follows the provider's redirects (logging in `idp.autoLogin`) up to the app's callback URL. */
export async function throughIdp(t: TestApp, authorizationUrl: string, idpJar = new Jar()): Promise<string> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 15; hop++) {
    if (url.startsWith(t.url)) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: idpJar.header() } });
    idpJar.take(res);
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}

export interface Finished {
  status: number;
  html: string;
  location: string | null;
  /** The new session cookie ("vis_session=…"), when one was set. */
  session: string | null;
}

/** Calls the app's callback URL as the browser of `jar`. */
export async function callback(jar: Jar, url: string): Promise<Finished> {
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.take(res);
  const session = res.headers.getSetCookie().find((c) => c.startsWith('vis_session='));
  return { status: res.status, html: await res.text(), location: res.headers.get('location'), session: session ? session.split(';')[0]! : null };
}

/** A whole sign-in: start, provider, callback. */
export async function signInWithSso(t: TestApp, idp: TestIdp, email: string, accountId: string, jar = new Jar(), next?: string) {
  idp.autoLogin = accountId;
  const started = await startSso(t, jar, email, next);
  if (!started.authorizationUrl) throw new Error(`start refused: ${started.status} ${started.html.slice(0, 500)}`);
  const back = await throughIdp(t, started.authorizationUrl);
  return { ...(await callback(jar, back)), callbackUrl: back, jar };
}
