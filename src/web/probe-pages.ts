import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Page, PageContext } from './layout.ts';
import { signedInMember } from './page-forms.ts';
import { teamProbesPage } from './pages/team-probes.ts';

// The private probes page (docs/early-warning.md "Private probes"; docs/web.md "Team"):
// members read their organisation's probes through the same use case as the REST API.

export async function probePageRoutes(
  app: FastifyInstance,
  h: { context: (r: FastifyRequest, reply: FastifyReply) => PageContext; send: (reply: FastifyReply, ctx: PageContext, page: Page) => FastifyReply },
) {
  const { orgs, earlyWarning } = app.services;
  const PAGE = { schema: { hide: true }, config: { auth: 'optional' as const } };
  app.get('/team/probes', PAGE, async (request, reply) => {
    const v = signedInMember(request, reply);
    if (!v) return reply;
    const [org, probes] = await Promise.all([orgs.get(v, v.orgId), earlyWarning.privateProbes.list(v, v.orgId)]);
    return h.send(reply, h.context(request, reply), teamProbesPage({ orgName: org.name, probes }));
  });
}
