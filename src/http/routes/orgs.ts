import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { requireOrg, requireUser } from '../plugins/viewer.ts';
import { ApiKeySchema } from '../schemas/account.ts';
import { errorResponses, IdParam, PLAIN_TEXT_PATTERN } from '../schemas/common.ts';
import {
  InvitationSchema,
  MemberSchema,
  MyOrganisation,
  NewInvitation,
  OrganisationSchema,
  OrgIdParams,
  OrgKeySchema,
  OrgName,
  Role,
} from '../schemas/orgs.ts';
import { noStore } from '../no-store.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';

// Organisations (docs/teams.md). Each route names the organisation in its path; the
// use case checks the caller's membership and role there (404 for an organisation the
// caller is not in, 403 `role_required` below the role an action needs). Reads work with
// a key or a session; minting keys and switching the session's organisation need the
// web session, as in the account area.

export const USER_SECURITY: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }];
const SESSION_SECURITY: Record<string, string[]>[] = [{ sessionCookie: [] }];

export const errors = {
  400: errorResponses[400],
  401: errorResponses[401],
  403: Type.Ref('ErrorBody', { description: "The caller's role is below what the action needs (`role_required`), or a session is needed" }),
  404: Type.Ref('ErrorBody', { description: 'No such organisation (or the caller is not a member), member, invitation or key' }),
  409: Type.Ref('ErrorBody', { description: 'The change is not possible now: last owner, personal organisation, invitation decided or for another address' }),
  429: errorResponses[429],
  500: errorResponses[500],
  503: errorResponses[503],
};

const Ok = Type.Object({ success: Type.Boolean() });
const tags = ['organisations'];

export async function orgRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Unknown fields are refused, not dropped: a body naming an owner, a plan or another id is a 400 (mass assignment).
  app.setValidatorCompiler(strictValidatorCompiler());
  const { orgs, keys } = app.services;
  app.addHook('onSend', noStore);

  app.get(
    '/orgs',
    {
      schema: {
        operationId: 'listOrganisations',
        summary: "The caller's organisations and their role in each",
        tags,
        security: USER_SECURITY,
        response: { 200: Type.Object({ success: Type.Boolean(), organisations: Type.Array(MyOrganisation) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, organisations: await orgs.listMine(requireUser(request)) }),
  );

  app.post(
    '/orgs',
    {
      schema: {
        operationId: 'createOrganisation',
        summary: 'Create a team organisation; the caller becomes its owner',
        tags,
        security: USER_SECURITY,
        body: Type.Object({ name: OrgName }, { additionalProperties: false }),
        response: { 201: Type.Object({ success: Type.Boolean(), organisation: OrganisationSchema }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const organisation = await orgs.create(requireUser(request), request.body.name);
      reply.code(201);
      return { success: true, organisation };
    },
  );

  app.get(
    '/orgs/:orgId',
    {
      schema: {
        operationId: 'getOrganisation',
        summary: "One organisation and the caller's role there",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), organisation: OrganisationSchema }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, organisation: await orgs.get(requireOrg(request), request.params.orgId) }),
  );

  app.patch(
    '/orgs/:orgId',
    {
      schema: {
        operationId: 'renameOrganisation',
        summary: 'Rename an organisation (admins)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: Type.Object({ name: OrgName }, { additionalProperties: false }),
        response: { 200: Type.Object({ success: Type.Boolean(), organisation: OrganisationSchema }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, organisation: await orgs.rename(requireOrg(request), request.params.orgId, request.body.name) }),
  );

  app.delete(
    '/orgs/:orgId',
    {
      schema: {
        operationId: 'deleteOrganisation',
        summary: 'Delete a team organisation and everything it owns (owners)',
        tags,
        security: SESSION_SECURITY,
        params: OrgIdParams,
        response: { 200: Ok, ...errors },
      },
      config: { auth: 'session' },
    },
    async (request) => {
      await orgs.remove(requireUser(request), request.params.orgId);
      return { success: true };
    },
  );

  app.post(
    '/orgs/:orgId/switch',
    {
      schema: {
        operationId: 'switchOrganisation',
        summary: 'Make this organisation the one the web session acts for',
        tags,
        security: SESSION_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), organisation: OrganisationSchema }), ...errors },
      },
      config: { auth: 'session' },
    },
    async (request) => {
      const session = request.session;
      if (!session) throw new DomainError('session_required', 'Switching organisations needs a web session');
      return { success: true, organisation: await orgs.switchTo(requireUser(request), session.sessionHash, request.params.orgId) };
    },
  );

  // ------------------------------------------------------------------ members
  const MemberParams = Type.Object({ orgId: IdParam('Id of the organisation'), userId: IdParam('Id of the member (`userId` in the member list)') });

  app.get(
    '/orgs/:orgId/members',
    {
      schema: {
        operationId: 'listMembers',
        summary: 'Members and their roles',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), members: Type.Array(MemberSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, members: await orgs.members(requireOrg(request), request.params.orgId) }),
  );

  app.patch(
    '/orgs/:orgId/members/:userId',
    {
      schema: {
        operationId: 'changeMemberRole',
        summary: "Change a member's role (admins, never above their own; an owner's only by an owner)",
        tags,
        security: USER_SECURITY,
        params: MemberParams,
        body: Type.Object({ role: Role }, { additionalProperties: false }),
        response: { 200: Ok, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await orgs.setRole(requireOrg(request), request.params.orgId, request.params.userId, request.body.role);
      return { success: true };
    },
  );

  app.delete(
    '/orgs/:orgId/members/:userId',
    {
      schema: {
        operationId: 'removeMember',
        summary: 'Remove a member; their keys for this organisation stop working',
        tags,
        security: USER_SECURITY,
        params: MemberParams,
        response: { 200: Ok, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await orgs.removeMember(requireOrg(request), request.params.orgId, request.params.userId);
      return { success: true };
    },
  );

  app.post(
    '/orgs/:orgId/leave',
    {
      schema: {
        operationId: 'leaveOrganisation',
        summary: 'Leave an organisation (the last owner cannot)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Ok, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await orgs.leave(requireUser(request), request.params.orgId);
      return { success: true };
    },
  );

  app.post(
    '/orgs/:orgId/transfer',
    {
      schema: {
        operationId: 'transferOwnership',
        summary: 'Make another member owner; the caller becomes admin (owners)',
        tags,
        security: SESSION_SECURITY,
        params: OrgIdParams,
        body: Type.Object({ userId: IdParam('The member who becomes owner') }, { additionalProperties: false }),
        response: { 200: Ok, ...errors },
      },
      config: { auth: 'session' },
    },
    async (request) => {
      await orgs.transferOwnership(requireUser(request), request.params.orgId, request.body.userId);
      return { success: true };
    },
  );

  // -------------------------------------------------------------- invitations
  app.get(
    '/orgs/:orgId/invitations',
    {
      schema: {
        operationId: 'listInvitations',
        summary: 'Open invitations (admins)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), invitations: Type.Array(InvitationSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, invitations: await orgs.invitations(requireOrg(request), request.params.orgId) }),
  );

  app.post(
    '/orgs/:orgId/invitations',
    {
      schema: {
        operationId: 'inviteMember',
        summary: 'Invite an e-mail address with a role (admins); the link works once, for 7 days, for that address only',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }), role: Role }, { additionalProperties: false }),
        response: { 201: Type.Object({ success: Type.Boolean(), invitation: NewInvitation }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const { token: _token, ...invitation } = await orgs.invite(requireOrg(request), request.params.orgId, request.body.email, request.body.role);
      reply.code(201);
      return { success: true, invitation };
    },
  );

  app.delete(
    '/orgs/:orgId/invitations/:invitationId',
    {
      schema: {
        operationId: 'revokeInvitation',
        summary: 'Revoke an open invitation (admins)',
        tags,
        security: USER_SECURITY,
        params: Type.Object({ orgId: IdParam('Id of the organisation'), invitationId: IdParam('Id of the invitation') }),
        response: { 200: Ok, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await orgs.revokeInvitation(requireOrg(request), request.params.orgId, request.params.invitationId);
      return { success: true };
    },
  );

  const TokenParams = Type.Object({
    token: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$', description: 'The token of the invitation link' }),
  });

  app.get(
    '/invitations/:token',
    {
      schema: {
        operationId: 'getInvitation',
        summary: 'What an invitation link is for and whether it can still be used',
        tags,
        params: TokenParams,
        response: { 200: Type.Object({ success: Type.Boolean(), invitation: InvitationSchema }), ...errors },
      },
      config: { auth: 'optional' },
    },
    async (request) => ({ success: true, invitation: await orgs.preview(request.params.token) }),
  );

  for (const decision of ['accept', 'decline'] as const) {
    app.post(
      `/invitations/:token/${decision}`,
      {
        schema: {
          operationId: decision === 'accept' ? 'acceptInvitation' : 'declineInvitation',
          summary: `${decision === 'accept' ? 'Accept' : 'Decline'} an invitation as the signed-in user it is addressed to`,
          tags,
          security: USER_SECURITY,
          params: TokenParams,
          response: { 200: Type.Object({ success: Type.Boolean(), invitation: InvitationSchema }), ...errors },
        },
        config: { auth: 'user' },
      },
      async (request) => ({ success: true, invitation: await orgs.decide(requireUser(request), request.params.token, decision) }),
    );
  }

  // ---------------------------------------------------------------------- keys
  app.get(
    '/orgs/:orgId/keys',
    {
      schema: {
        operationId: 'listOrganisationKeys',
        summary: "Every active key of the organisation, members' and its own (admins)",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), keys: Type.Array(OrgKeySchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, keys: await keys.listForOrg(await orgs.actingIn(requireOrg(request), request.params.orgId)) }),
  );

  app.post(
    '/orgs/:orgId/keys',
    {
      schema: {
        operationId: 'createOrganisationKey',
        summary: 'Create an organisation key: a service account with a role, not tied to a member (admins)',
        tags,
        security: SESSION_SECURITY,
        params: OrgIdParams,
        body: Type.Object({ name: Type.Optional(Type.String({ maxLength: 100, pattern: PLAIN_TEXT_PATTERN })), role: Role }, { additionalProperties: false }),
        response: {
          201: Type.Object({ success: Type.Boolean(), key: ApiKeySchema, role: Role, secret: Type.String({ description: 'Shown here only' }) }),
          ...errors,
        },
      },
      config: { auth: 'session' },
    },
    async (request, reply) => {
      const admin = await orgs.actingIn(requireUser(request), request.params.orgId);
      const { key, secret } = await keys.createForOrg(admin, request.body.role, request.body.name);
      reply.code(201);
      return { success: true, key, role: request.body.role, secret };
    },
  );

  app.delete(
    '/orgs/:orgId/keys/:keyId',
    {
      schema: {
        operationId: 'revokeOrganisationKey',
        summary: 'Revoke any key of the organisation (admins)',
        tags,
        security: SESSION_SECURITY,
        params: Type.Object({ orgId: IdParam('Id of the organisation'), keyId: IdParam('Id of the key') }),
        response: { 200: Ok, ...errors },
      },
      config: { auth: 'session' },
    },
    async (request) => {
      await keys.revokeInOrg(await orgs.actingIn(requireUser(request), request.params.orgId), request.params.keyId);
      return { success: true };
    },
  );
}
