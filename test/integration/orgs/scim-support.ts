import assert from 'node:assert/strict';
import { getJson, type TestApp } from '../../helpers/app.ts';
import { send } from '../../helpers/users.ts';

// Helpers of the SCIM tests (docs/teams.md, "SCIM"): SCIM calls with a bearer token,
// a team with a token, a member who accepted an invitation.

export const SCIM_TYPE = 'application/scim+json';

/** A SCIM call as identity providers make it: bearer token, application/scim+json. */
export async function scim(t: TestApp, token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await getJson(`${t.url}/scim/v2${path}`, {
    method,
    headers: {
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': SCIM_TYPE } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return r;
}

/** Asserts a SCIM error answer: status, SCIM error schema, status as a string, scimType when given. */
export function assertScimError(r: { status: number; headers: Headers; body: any }, status: number, scimType?: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.match(r.headers.get('content-type') ?? '', /^application\/scim\+json/);
  assert.deepEqual(r.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
  assert.equal(r.body.status, String(status));
  assert.equal(typeof r.body.detail, 'string');
  if (scimType) assert.equal(r.body.scimType, scimType, JSON.stringify(r.body));
}

export const session = (t: TestApp, cookie: string) => ({ cookie, origin: t.url });

/** A team organisation of the owner (session cookie) with one SCIM token. */
export async function teamWithToken(t: TestApp, ownerCookie: string, name: string) {
  const org = await send(`${t.url}/api/v1/orgs`, 'POST', session(t, ownerCookie), { name });
  assert.equal(org.status, 201, JSON.stringify(org.body));
  const orgId = org.body.organisation.id as string;
  const tok = await send(`${t.url}/api/v1/orgs/${orgId}/scim/tokens`, 'POST', session(t, ownerCookie), { name: `${name} IdP` });
  assert.equal(tok.status, 201, JSON.stringify(tok.body));
  return { orgId, token: tok.body.secret as string, tokenId: tok.body.token.id as string };
}

/** Invites an address into the organisation and accepts with the invitee's session. */
export async function joinByInvitation(t: TestApp, orgId: string, ownerCookie: string, memberCookie: string, email: string, role = 'viewer') {
  const inv = await send(`${t.url}/api/v1/orgs/${orgId}/invitations`, 'POST', session(t, ownerCookie), { email, role });
  assert.equal(inv.status, 201, JSON.stringify(inv.body));
  const token = inv.body.invitation.link.split('/').pop();
  assert.equal((await send(`${t.url}/api/v1/invitations/${token}/accept`, 'POST', session(t, memberCookie))).status, 200);
}

/** The member's role in the organisation as its owner sees it (null: not a member). */
export async function roleIn(t: TestApp, orgId: string, ownerCookie: string, userId: string): Promise<string | null> {
  const r = await send(`${t.url}/api/v1/orgs/${orgId}/members`, 'GET', { cookie: ownerCookie });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.members.find((m: { userId: string }) => m.userId === userId)?.role ?? null;
}
