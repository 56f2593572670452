import type { Plan, UserPlan } from '../../src/domain/plans.ts';
import type { UserViewer } from '../../src/services/context.ts';
import type { TestApp } from './app.ts';

let n = 0;
export const uniqueEmail = (tag = 'user') => `${tag}.${process.pid}.${Date.now().toString(36)}.${n++}@example.com`;

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  plan: UserPlan;
  secret: string;
  keyId: string;
}

/** A user of the given plan with one API key, made through the services (as the CLI does). */
export async function userWithKey(t: TestApp, plan: UserPlan, tag: string = plan): Promise<TestUser> {
  const email = uniqueEmail(tag);
  const password = 'correct horse battery';
  const user = await t.app.services.accounts.createUser({ email, password, plan });
  // Test fixture: the key is made whatever API_KEY_MIN_PLAN says (the gate has its own tests).
  const { key, secret } = await t.app.services.keys.create(ownerViewer(user.id, 'vip'), `${tag} key`);
  return { userId: user.id, email, password, plan, secret, keyId: key.id };
}

/**
 * Logs in through the web endpoint and returns the Cookie header value: the
 * session cookie and the CSRF cookie (send its value as X-CSRF-Token on
 * state-changing session requests, see csrfTokenOf).
 */
export async function login(t: TestApp, email: string, password: string): Promise<string> {
  const res = await fetch(`${t.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return `${sessionCookie(res)}; ${csrfCookie(res)}`;
}

export function csrfCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vis_csrf='));
  if (!set) throw new Error('no CSRF cookie');
  return set.split(';')[0];
}

/** The CSRF token of a Cookie header made by login(). */
export const csrfTokenOf = (cookieHeader: string) => /(?:^|;\s*)vis_csrf=([^;]+)/.exec(cookieHeader)?.[1] ?? '';

export function sessionCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vis_session='));
  if (!set) throw new Error('no session cookie');
  return set.split(';')[0];
}

/**
 * A user acting as owner of their personal organisation (its id is the user's:
 * docs/teams.md "Data model"), for calling use cases directly in fixtures.
 */
export const ownerViewer = (userId: string, plan: Plan): UserViewer => ({ plan, userId, orgId: userId, role: 'owner', authKind: 'session', keyId: null });
