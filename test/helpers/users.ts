import type { UserPlan } from '../../src/domain/plans.ts';
import { login, userWithKey } from './access.ts';
import { getJson, type TestApp } from './app.ts';

// Real accounts and API keys (made through the access services, as the operator
// CLI does) for tests of the per-user endpoints.

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
  const u = await userWithKey(t, plan);
  return { id: u.userId, email: u.email, password: u.password, plan, key: u.secret, headers: { 'x-api-key': u.secret } };
}

/** Logs in through POST /api/v1/auth/login; returns the Cookie header value. */
export const loginCookie = (t: TestApp, u: TestUser) => login(t, u.email, u.password);

/**
 * A JSON call; a string body is sent as it is (to send broken JSON). Like our web
 * pages, a call carrying the session cookie echoes its CSRF token in X-CSRF-Token.
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
