import type { UserPlan } from '../../src/domain/plans.ts';
import { getJson, type TestApp, uniqueName } from './app.ts';

// Real accounts and API keys, created through the access services (as the
// operator CLI does), for tests of per-user endpoints.

export interface TestUser {
  id: string;
  email: string;
  password: string;
  plan: UserPlan;
  key: string;
  /** Headers authenticating with the user's API key. */
  headers: Record<string, string>;
}

export async function createUser(t: TestApp, plan: UserPlan = 'free'): Promise<TestUser> {
  const email = `${uniqueName('user')}@example.com`;
  const password = 'correct horse battery staple';
  const user = await t.app.services.accounts.createUser({ email, password, plan });
  const { secret } = await t.app.services.keys.create({ userId: user.id, plan }, 'tests');
  return { id: user.id, email, password, plan, key: secret, headers: { 'x-api-key': secret } };
}

/**
 * Logs in through POST /api/v1/auth/login and returns the Cookie header: the
 * session cookie and the CSRF cookie issued with it.
 */
export async function loginCookie(t: TestApp, u: TestUser): Promise<string> {
  const res = await fetch(`${t.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: u.email, password: u.password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const pick = (name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))?.split(';')[0];
  const session = pick('vis_session');
  const csrf = pick('vis_csrf');
  if (!session || !csrf) throw new Error('no session or CSRF cookie');
  return `${session}; ${csrf}`;
}

/**
 * JSON call with a body; `auth` headers merged in. Like our web pages, a call
 * carrying the session cookie echoes its CSRF token in X-CSRF-Token.
 */
export function send(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const csrf = /(?:^|;\s*)vis_csrf=([^;]+)/.exec(headers.cookie ?? '')?.[1];
  return getJson(url, {
    method,
    headers: {
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
      ...headers,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}
