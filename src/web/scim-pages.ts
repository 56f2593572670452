import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { SCIM_GROUP_ROLES, type ScimGroupRole } from '../domain/scim-roles.ts';
import type { UserViewer } from '../services/context.ts';
import { html } from './html.ts';
import { formField, formPage, ID_ROUTE, PAGE_ROUTE, type PageHelpers } from './page-forms.ts';
import { type ScimPageData, scimPage } from './pages/scim.ts';

// The SCIM settings page (docs/teams.md "SCIM"; docs/web.md "Team"): plain forms over the
// same use cases as `/api/v1/orgs/{id}/scim/...`. A refused form shows the page again with
// the reason and its status; a made token is shown once on the answer.

const STATUS: Partial<Record<string, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 403,
  role_required: 403,
};

const DONE: Record<string, string> = { saved: 'Group role saved; its members follow at once.', revoked: 'Token revoked.' };

export async function scimPageRoutes(app: FastifyInstance, h: PageHelpers) {
  const { scim, orgs } = app.services;

  async function show(request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: ScimPageData['notice'], status = 200) {
    const ctx = h.context(request, reply);
    try {
      const [org, tokens, groups] = await Promise.all([orgs.get(v, v.orgId), scim.tokens.list(v, v.orgId), scim.groups.summaries(v, v.orgId)]);
      const page = scimPage({ orgName: org.name, baseUrl: `${request.protocol}://${request.host}`, tokens, groups, csrf: ctx.csrfToken, notice });
      return h.send(reply.code(status), ctx, { ...page, status });
    } catch (err) {
      // Below admin, or a personal organisation: the page says why instead of the settings.
      const s = forms.refusal(err);
      if (s === null) throw err;
      return h.send(reply.code(s), ctx, { title: 'SCIM provisioning', status: s, main: scimRefusal((err as Error).message) });
    }
  }

  const forms = formPage<NonNullable<ScimPageData['notice']>>(app, { path: '/team/scim', done: DONE, refusals: STATUS, show });
  forms.page();
  forms.action('/team/scim/tokens', PAGE_ROUTE, async (v, request) => {
    const made = await scim.tokens.create(v, v.orgId, formField(request.body, 'name'));
    return { kind: 'ok', text: `Token ${made.token.name} made.`, secret: made.secret };
  });
  forms.action('/team/scim/tokens/:id/revoke', ID_ROUTE, async (v, request) => {
    await scim.tokens.revoke(v, v.orgId, (request.params as { id: string }).id);
    return 'revoked';
  });
  forms.action('/team/scim/groups/:id/role', ID_ROUTE, async (v, request) => {
    const role = formField(request.body, 'role');
    if (role !== '' && !(SCIM_GROUP_ROLES as readonly string[]).includes(role)) throw new DomainError('invalid_parameter', 'Choose a role');
    await scim.groups.setRole(v, v.orgId, (request.params as { id: string }).id, role === '' ? null : (role as ScimGroupRole));
    return 'saved';
  });
}

function scimRefusal(message: string) {
  return html`<h1 class="page-title">SCIM provisioning</h1><p role="alert" data-scim-notice>${message}</p><p><a href="/team">Back to the team</a></p>`;
}
