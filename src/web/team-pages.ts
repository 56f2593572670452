import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { isOrgRole, roleAtLeast } from '../domain/org-roles.ts';
import type { UserViewer } from '../services/context.ts';
import { formField, formPage, PAGE_ROUTE, type PageHelpers, signedInMember } from './page-forms.ts';
import { auditPage, invitationPage, type TeamPageData, teamPage } from './pages/team.ts';

// The team pages (docs/teams.md; docs/web.md "Team"): plain forms posting to these
// routes, which call the same use cases as the REST API. A refused form shows the page
// again with the reason and the refusal's status; a done one redirects (303) so a reload
// does not repeat it, except an invitation, whose link is shown once on the answer.

type Notice = TeamPageData['notice'];

const DONE: Record<string, string> = {
  switched: 'You now act for this organisation.',
  created: 'Organisation created; you are its owner.',
  role: 'Role changed.',
  removed: 'Member removed; their keys for this organisation stopped working.',
  sso: 'Single sign-on saved.',
  'sso-removed': 'Single sign-on connection removed.',
  domain: 'Domain added: add its TXT record, then verify it.',
  verified: 'Domain verified.',
  'domain-removed': 'Domain removed.',
  revoked: 'Invitation revoked.',
  left: 'You left the organisation.',
};

const STATUS: Partial<Record<string, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 403,
  role_required: 403,
  rate_limit_exceeded: 429,
  unprocessable: 422,
  unavailable: 503,
};

export async function teamPageRoutes(app: FastifyInstance, h: PageHelpers) {
  const { orgs, accounts, audit, sso } = app.services;
  const base = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  const PAGE = PAGE_ROUTE;

  async function show(request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: Notice, status = 200) {
    const [list, members, me] = await Promise.all([orgs.listMine(v), orgs.members(v, v.orgId), accounts.findById(v.userId)]);
    const invitations = roleAtLeast(v.role, 'admin') ? await orgs.invitations(v, v.orgId) : null;
    const personal = list.find((o) => o.id === v.orgId)?.personal ?? true;
    const ssoData =
      invitations && !personal
        ? { settings: await sso.get(v, v.orgId, base(request)), domains: await sso.domains(v, v.orgId), redirectUri: sso.redirectUri(base(request)) }
        : null;
    const ctx = h.context(request, reply);
    const page = teamPage({ orgs: list, me: me?.email ?? '', members, invitations, csrf: ctx.csrfToken, notice, sso: ssoData });
    return h.send(reply.code(status), ctx, { ...page, status });
  }

  const forms = formPage<NonNullable<Notice>>(app, { path: '/team', done: DONE, refusals: STATUS, show });
  /** A form: done → 303 back to the page saying so; refused → the page with the reason. */
  const action = (path: string, run: (v: UserViewer, request: FastifyRequest) => Promise<string | NonNullable<Notice>>) => forms.action(path, PAGE, run);
  forms.page();

  action('/team/switch', async (v, request) => {
    if (!request.session) throw new DomainError('invalid_parameter', 'Switching needs a web session');
    await orgs.switchTo(v, request.session.sessionHash, formField(request.body, 'orgId'));
    return 'switched';
  });
  action('/team/create', async (v, request) => {
    const org = await orgs.create(v, formField(request.body, 'name'));
    if (request.session) await orgs.switchTo(v, request.session.sessionHash, org.id);
    return 'created';
  });
  action('/team/invite', async (v, request) => {
    const role = formField(request.body, 'role');
    if (!isOrgRole(role)) throw new DomainError('invalid_parameter', 'Choose a role');
    const inv = await orgs.invite(v, v.orgId, formField(request.body, 'email'), role);
    const link = inv.link.startsWith('/') ? `${request.protocol}://${request.host}${inv.link}` : inv.link;
    return { kind: 'ok', text: `Invited ${inv.email} as ${inv.role}${inv.emailed ? '; the invitation was e-mailed' : ''}.`, link };
  });
  action('/team/invitations/:id/revoke', async (v, request) => {
    await orgs.revokeInvitation(v, v.orgId, (request.params as { id: string }).id);
    return 'revoked';
  });
  action('/team/members/:userId/role', async (v, request) => {
    const role = formField(request.body, 'role');
    if (!isOrgRole(role)) throw new DomainError('invalid_parameter', 'Choose a role');
    await orgs.setRole(v, v.orgId, (request.params as { userId: string }).userId, role);
    return 'role';
  });
  action('/team/members/:userId/remove', async (v, request) => {
    await orgs.removeMember(v, v.orgId, (request.params as { userId: string }).userId);
    return 'removed';
  });
  action('/team/sso', async (v, request) => {
    const role = formField(request.body, 'defaultRole');
    if (role !== 'viewer' && role !== 'editor' && role !== 'admin') throw new DomainError('invalid_parameter', 'Choose a role');
    const secret = formField(request.body, 'clientSecret');
    await sso.put(
      v,
      v.orgId,
      {
        issuer: formField(request.body, 'issuer'),
        clientId: formField(request.body, 'clientId'),
        clientSecret: secret || undefined,
        defaultRole: role,
        enabled: formField(request.body, 'enabled') === 'on',
        ssoRequired: formField(request.body, 'ssoRequired') === 'on',
      },
      base(request),
    );
    return 'sso';
  });
  action('/team/sso/delete', async (v) => {
    await sso.remove(v, v.orgId);
    return 'sso-removed';
  });
  action('/team/sso/domains', async (v, request) => {
    await sso.addDomain(v, v.orgId, formField(request.body, 'domain'));
    return 'domain';
  });
  action('/team/sso/domains/:id/verify', async (v, request) => {
    await sso.verifyDomain(v, v.orgId, (request.params as { id: string }).id);
    return 'verified';
  });
  action('/team/sso/domains/:id/delete', async (v, request) => {
    await sso.deleteDomain(v, v.orgId, (request.params as { id: string }).id);
    return 'domain-removed';
  });
  action('/team/leave', async (v) => {
    await orgs.leave(v, v.orgId);
    return 'left';
  });

  app.get('/team/audit', PAGE, async (request, reply) => {
    const v = signedInMember(request, reply);
    if (!v) return reply;
    const q = request.query as Record<string, unknown>;
    const text = (k: string, re: RegExp) => (typeof q[k] === 'string' && re.test(q[k] as string) ? (q[k] as string) : undefined);
    const filters = { action: text('action', /^[a-z_.]{1,64}$/), actor: text('actor', /^(user|key|scim|operator|system)$/) };
    const before = text('before', /^\d{1,12}$/);
    const readable = await audit.readable(v, { orgId: v.orgId, action: filters.action, actorKind: filters.actor });
    const page = await audit.list({ ...readable, limit: 50, before: before ? Number(before) : undefined });
    const org = await orgs.get(v, v.orgId);
    const download = (format: 'csv' | 'ndjson') =>
      `/api/v1/orgs/${v.orgId}/audit?${new URLSearchParams({ format, ...(filters.action ? { action: filters.action } : {}), ...(filters.actor ? { actor: filters.actor } : {}) })}`;
    return h.send(reply, h.context(request, reply), auditPage({ orgName: org.name, ...page, filters, csvUrl: download('csv'), ndjsonUrl: download('ndjson') }));
  });

  const TOKEN_ROUTE = {
    ...PAGE,
    schema: { hide: true, params: { type: 'object', properties: { token: { type: 'string', maxLength: 128 } }, required: ['token'] } },
  };

  async function invitation(request: FastifyRequest, reply: FastifyReply, outcome?: { kind: 'ok' | 'error'; text: string }) {
    const token = (request.params as { token: string }).token;
    const ctx = h.context(request, reply);
    const found = await orgs.preview(token).catch((err) => {
      if (err instanceof DomainError && err.code === 'not_found') return null;
      throw err;
    });
    const v = request.viewer;
    const me = v.authKind === 'session' && v.userId ? ((await accounts.findById(v.userId))?.email ?? null) : null;
    return h.send(reply, ctx, invitationPage({ invitation: found, token, me, csrf: ctx.csrfToken, outcome }));
  }

  // The link is the credential: the site's `same-origin` Referrer-Policy keeps it out of
  // Referer headers to other sites; `no-referrer` would make Chromium post the form with
  // `Origin: null`, which is refused (as on the e-mail confirmation page).
  app.get('/invitations/:token', TOKEN_ROUTE, async (request, reply) => invitation(request, reply));
  app.post('/invitations/:token', TOKEN_ROUTE, async (request, reply) => {
    const v = signedInMember(request, reply);
    if (!v) return reply;
    const decision = formField(request.body, 'decision') === 'accept' ? 'accept' : 'decline';
    try {
      const done = await orgs.decide(v, (request.params as { token: string }).token, decision);
      const text =
        decision === 'accept' ? `You joined ${done.organisation.name} as ${done.role}. Switch to it on the Team page.` : 'You declined the invitation.';
      return invitation(request, reply, { kind: 'ok', text });
    } catch (err) {
      if (!(err instanceof DomainError) || (err.code !== 'conflict' && err.code !== 'not_found')) throw err;
      return invitation(request, reply, { kind: 'error', text: err.message });
    }
  });
}
