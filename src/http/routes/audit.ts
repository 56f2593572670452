import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { Nullable } from '../schemas/common.ts';
import { AuditEntrySchema, AuditQuery, OrgIdParams } from '../schemas/orgs.ts';
import { auditCsv, auditNdjson } from './audit-export.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// An organisation's audit log (docs/teams.md, "Audit log"), for its admins: JSON pages
// newest first, or every matching entry as CSV or JSON lines. A plugin of its own: its query string is
// read with the app-wide validator (numbers from text), the other organisation routes
// refuse unknown body fields.

export async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { orgs, audit } = app.services;
  app.addHook('onSend', noStore);

  app.get(
    '/orgs/:orgId/audit',
    {
      schema: {
        operationId: 'listAuditLog',
        summary: 'The audit log, newest first, with filters and paging; `format=csv` or `format=ndjson` downloads every match (admins)',
        tags: ['organisations'],
        security: USER_SECURITY,
        params: OrgIdParams,
        querystring: AuditQuery,
        response: {
          200: {
            description: 'A page of entries as JSON, or every matching entry as CSV (`format=csv`) or JSON lines (`format=ndjson`)',
            content: {
              'application/json': {
                schema: Type.Object({ success: Type.Boolean(), entries: Type.Array(AuditEntrySchema), nextBefore: Nullable(Type.Integer()) }),
              },
              'text/csv': { schema: Type.String({ description: 'RFC 4180 CSV with a header row; formula-like cells start with an apostrophe' }) },
              'application/x-ndjson': { schema: Type.String({ description: 'One audit entry object per line, the shape of `entries[]`' }) },
            },
          },
          ...errors,
        },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const v = await orgs.actingIn(requireOrg(request), request.params.orgId);
      const q = request.query;
      const filters = await audit.readable(v, { orgId: v.orgId, action: q.action, actorKind: q.actor, since: q.since, until: q.until });
      if (q.format === 'csv') {
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="audit-${v.orgId}.csv"`);
        return reply.send(await auditCsv(audit.all(filters)));
      }
      if (q.format === 'ndjson') {
        reply.header('content-type', 'application/x-ndjson; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="audit-${v.orgId}.ndjson"`);
        return reply.send(await auditNdjson(audit.all(filters)));
      }
      return { success: true, ...(await audit.list({ ...filters, limit: q.limit ?? 50, before: q.before })) };
    },
  );
}
