import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { NewPrivateProbe, PrivateProbeChange, PrivateProbeParams, PrivateProbeQuery, PrivateProbeSchema } from '../schemas/private-probes.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// Private probes of an organisation (docs/early-warning.md "Private probes"): members read
// them with their state, editors create, change and delete them (403 `role_required` below).
// Unknown body fields are refused; the credential's value is never answered.

const tags = ['early warning'];
const One = Type.Object({ success: Type.Boolean(), probe: PrivateProbeSchema });

export async function privateProbeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { privateProbes } = app.services.earlyWarning;

  app.get(
    '/orgs/:orgId/probes',
    {
      schema: {
        operationId: 'listPrivateProbes',
        summary: "The organisation's private probes with their state (members)",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        querystring: PrivateProbeQuery,
        response: { 200: Type.Object({ success: Type.Boolean(), probes: Type.Array(PrivateProbeSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, probes: await privateProbes.list(requireOrg(request), request.params.orgId, request.query.vendor) }),
  );

  app.post(
    '/orgs/:orgId/probes',
    {
      schema: {
        operationId: 'createPrivateProbe',
        summary: 'Add a private probe, optionally with one credential header (editors)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: NewPrivateProbe,
        response: { 201: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const probe = await privateProbes.create(requireOrg(request), request.params.orgId, request.body);
      reply.code(201);
      return { success: true, probe };
    },
  );

  app.get(
    '/orgs/:orgId/probes/:probeId',
    {
      schema: {
        operationId: 'getPrivateProbe',
        summary: 'One private probe with its state',
        tags,
        security: USER_SECURITY,
        params: PrivateProbeParams,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, probe: await privateProbes.get(requireOrg(request), request.params.orgId, request.params.probeId) }),
  );

  app.put(
    '/orgs/:orgId/probes/:probeId',
    {
      schema: {
        operationId: 'updatePrivateProbe',
        summary:
          'Change a private probe (editors): fields given replace those stored; a new target starts its baseline afresh; `credential: null` removes the credential',
        tags,
        security: USER_SECURITY,
        params: PrivateProbeParams,
        body: PrivateProbeChange,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, probe: await privateProbes.update(requireOrg(request), request.params.orgId, request.params.probeId, request.body) }),
  );

  app.delete(
    '/orgs/:orgId/probes/:probeId',
    {
      schema: {
        operationId: 'deletePrivateProbe',
        summary: 'Delete a private probe (editors)',
        tags,
        security: USER_SECURITY,
        params: PrivateProbeParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await privateProbes.delete(requireOrg(request), request.params.orgId, request.params.probeId);
      return { success: true };
    },
  );
}
