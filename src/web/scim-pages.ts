import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { SCIM_GROUP_ROLES, type ScimGroupRole } from '../domain/scim-roles.ts';
import type { UserViewer } from '../services/context.ts';
import { html } from './html.ts';
import type { Page, PageContext } from './layout.ts';
import { formField, signedInMember } from './page-forms.ts';
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


export async function scimPageRoutes(
  app: FastifyInstance,
  h: { context: (r: FastifyRequest, reply: FastifyReply) => PageContext; send: (reply: FastifyReply, ctx: PageContext, page: Page) => FastifyReply },
) {
  const { scim, orgs } = app.services;
  const PAGE = { schema: { hide: true }, config: { auth: 'optional' as const } };
  const ID = { ...PAGE, schema: { hide: true, params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } } };


  async function show(request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: ScimPageData['notice'], status = 200) {
    const ctx = h.context(request, reply);
    try {
      const [org, tokens, groups] = await Promise.all([orgs.get(v, v.orgId), scim.tokens.list(v, v.orgId), scim.groups.summaries(v, v.orgId)]);
      const page = scimPage({ orgName: org.name, baseUrl: `${request.protocol}://${request.host}`, tokens, groups, csrf: ctx.csrfToken, notice });
      return h.send(reply.code(status), ctx, { ...page, status });
    } catch (err) {
      // Below admin, or a personal organisation: the page says why instead of the settings.
      if (!(err instanceof DomainError) || !STATUS[err.code]) throw err;
      const s = STATUS[err.code]!;
      return h.send(reply.code(s), ctx, { title: 'SCIM provisioning', status: s, main: scimRefusal(err.message) });
    }
  }

  function action(path: string, opts: typeof PAGE | typeof ID, run: (v: UserViewer, request: FastifyRequest) => Promise<ScimPageData['notice'] | 'saved' | 'revoked'>) {
    app.post(path, opts, async (request, reply) => {
      const v = signedInMember(request, reply);
      if (!v) return reply;
      try {
        const done = await run(v, request);
        if (done === 'saved' || done === 'revoked') return reply.redirect(`/team/scim?done=${done}`, 303);
        return show(request, reply, v, done, 201);
      } catch (err) {
        if (!(err instanceof DomainError) || !STATUS[err.code]) throw err;
        return show(request, reply, v, { kind: 'error', text: err.message }, STATUS[err.code]);
      }
    });
  }

  app.get('/team/scim', PAGE, async (request, reply) => {
    const v = signedInMember(request, reply);
    if (!v) return reply;
    const done = (request.query as { done?: unknown }).done;
    const text = done === 'saved' ? 'Group role saved; its members follow at once.' : done === 'revoked' ? 'Token revoked.' : null;
    return show(request, reply, v, text ? { kind: 'ok', text } : undefined);
  });
  action('/team/scim/tokens', PAGE, async (v, request) => {
    const made = await scim.tokens.create(v, v.orgId, formField(request.body, 'name'));
    return { kind: 'ok', text: `Token ${made.token.name} made.`, secret: made.secret };
  });
  action('/team/scim/tokens/:id/revoke', ID, async (v, request) => {
    await scim.tokens.revoke(v, v.orgId, (request.params as { id: string }).id);
    return 'revoked';
  });
  action('/team/scim/groups/:id/role', ID, async (v, request) => {
    const role = formField(request.body, 'role');
    if (role !== '' && !(SCIM_GROUP_ROLES as readonly string[]).includes(role)) throw new DomainError('invalid_parameter', 'Choose a role');
    await scim.groups.setRole(v, v.orgId, (request.params as { id: string }).id, role === '' ? null : (role as ScimGroupRole));
    return 'saved';
  });
}

function scimRefusal(message: string) {
  return html`<h1 class="page-title">SCIM provisioning</h1><p role="alert" data-scim-notice>${message}</p><p><a href="/team">Back to the team</a></p>`;
}
