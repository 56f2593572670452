import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg, requireUser } from '../plugins/viewer.ts';
import { IdParam } from '../schemas/common.ts';
import { OrgIdParams, OrgName } from '../schemas/orgs.ts';
import { ScimGroupRoleSchema, ScimTokenSchema } from '../schemas/scim.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// SCIM settings of an organisation (docs/teams.md, "SCIM"), for its admins: the bearer
// tokens an identity provider uses (made and revoked with a web session, as
// organisation keys are; the secret is shown once) and the role each SCIM group gives.

const tags = ['organisations'];
const SESSION_SECURITY: Record<string, string[]>[] = [{ sessionCookie: [] }];
const TokenParams = Type.Object({ orgId: IdParam('Id of the organisation'), tokenId: IdParam('Id of the SCIM token') });
const GroupRole = Type.Unsafe<'viewer' | 'editor' | 'admin' | null>({
  type: 'string',
  enum: ['viewer', 'editor', 'admin', null],
  nullable: true,
  description: 'The role the group gives its members; null: none (never owner)',
});
const GroupParams = Type.Object({ orgId: IdParam('Id of the organisation'), groupId: IdParam('Id of the SCIM group') });

export async function scimAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { scim } = app.services;

  app.get(
    '/orgs/:orgId/scim/tokens',
    {
      schema: {
        operationId: 'listScimTokens',
        summary: "The organisation's active SCIM tokens (admins)",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), tokens: Type.Array(ScimTokenSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, tokens: await scim.tokens.list(requireOrg(request), request.params.orgId) }),
  );

  app.post(
    '/orgs/:orgId/scim/tokens',
    {
      schema: {
        operationId: 'createScimToken',
        summary: 'Create a SCIM token for an identity provider; the secret is shown once (admins, web session)',
        tags,
        security: SESSION_SECURITY,
        params: OrgIdParams,
        body: Type.Object({ name: OrgName }, { additionalProperties: false }),
        response: { 201: Type.Object({ success: Type.Boolean(), token: ScimTokenSchema, secret: Type.String({ description: 'Shown here only' }) }), ...errors },
      },
      config: { auth: 'session' },
    },
    async (request, reply) => {
      const { token, secret } = await scim.tokens.create(requireUser(request), request.params.orgId, request.body.name);
      reply.code(201);
      return { success: true, token, secret };
    },
  );

  app.delete(
    '/orgs/:orgId/scim/tokens/:tokenId',
    {
      schema: {
        operationId: 'revokeScimToken',
        summary: 'Revoke a SCIM token; it is refused from its next request (admins, web session)',
        tags,
        security: SESSION_SECURITY,
        params: TokenParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'session' },
    },
    async (request) => {
      await scim.tokens.revoke(requireUser(request), request.params.orgId, request.params.tokenId);
      return { success: true };
    },
  );

  app.get(
    '/orgs/:orgId/scim/groups',
    {
      schema: {
        operationId: 'listScimGroups',
        summary: 'The SCIM groups of the organisation with the role each gives (admins)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), groups: Type.Array(ScimGroupRoleSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, groups: await scim.groups.summaries(requireOrg(request), request.params.orgId) }),
  );

  app.put(
    '/orgs/:orgId/scim/groups/:groupId/role',
    {
      schema: {
        operationId: 'setScimGroupRole',
        summary: "Map a SCIM group to a role (viewer, editor, admin; null: none); its members' roles follow at once (admins)",
        tags,
        security: USER_SECURITY,
        params: GroupParams,
        body: Type.Object({ role: GroupRole }, { additionalProperties: false }),
        response: { 200: Type.Object({ success: Type.Boolean(), group: ScimGroupRoleSchema }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({
      success: true,
      group: await scim.groups.setRole(requireOrg(request), request.params.orgId, request.params.groupId, request.body.role),
    }),
  );
}
