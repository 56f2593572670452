import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { ConfigApplyBody, ConfigApplyResponse, ConfigExportResponse } from '../schemas/org-config.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// Config as code (docs/services.md "Config as code"): members export the organisation's
// services, named watchlists and alert routes as one file; editors apply one (a dry run
// answers the plan only). A file with any problem is refused whole (400 with `problems`).

const tags = ['services'];

export async function orgConfigRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { orgConfig } = app.services;

  app.get(
    '/orgs/:orgId/config/export',
    {
      schema: {
        operationId: 'exportOrgConfig',
        summary: "The organisation's services, named watchlists and alert routes as one YAML file",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: ConfigExportResponse, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, yaml: (await orgConfig.export(requireOrg(request), request.params.orgId)).yaml }),
  );

  app.post(
    '/orgs/:orgId/config/apply',
    {
      schema: {
        operationId: 'applyOrgConfig',
        summary: 'Apply a configuration file (editors): the plan per item, written in one transaction unless a dry run',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: ConfigApplyBody,
        response: { 200: ConfigApplyResponse, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await orgConfig.apply(requireOrg(request), request.params.orgId, request.body)) }),
  );
}
