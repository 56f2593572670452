import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { NewSsoDomain, SsoDomainParams, SsoDomainResponse, SsoDomainsResponse, SsoSettingsInputSchema, SsoSettingsResponse } from '../schemas/sso.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// Single sign-on settings of an organisation (docs/teams.md, "Single sign-on"): admins
// only (403 `role_required` below), never on a personal organisation (409). The client
// secret is never sent back, only masked. Unknown body fields are refused.

const tags = ['organisations'];
const ssoErrors = {
  ...errors,
  422: Type.Ref('ErrorBody', { description: "The issuer's discovery document could not be used, or the domain's TXT record is not there yet" }),
};
const Ok = Type.Object({ success: Type.Boolean() });
const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export async function ssoRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { sso } = app.services;
  const common = { tags, security: USER_SECURITY };

  app.get(
    '/orgs/:orgId/sso',
    {
      schema: {
        ...common,
        operationId: 'getSsoConnection',
        summary: "The organisation's single sign-on connection (admins); null when none",
        params: OrgIdParams,
        response: { 200: SsoSettingsResponse, ...ssoErrors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, sso: await sso.get(requireOrg(request), request.params.orgId, baseOf(request)) }),
  );

  app.put(
    '/orgs/:orgId/sso',
    {
      schema: {
        ...common,
        operationId: 'putSsoConnection',
        summary: 'Create or replace the single sign-on connection (admins); the issuer must answer OpenID Connect discovery',
        params: OrgIdParams,
        body: SsoSettingsInputSchema,
        response: { 200: SsoSettingsResponse, ...ssoErrors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, sso: await sso.put(requireOrg(request), request.params.orgId, request.body, baseOf(request)) }),
  );

  app.delete(
    '/orgs/:orgId/sso',
    {
      schema: {
        ...common,
        operationId: 'deleteSsoConnection',
        summary: 'Remove the single sign-on connection (admins)',
        params: OrgIdParams,
        response: { 200: Ok, ...ssoErrors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await sso.remove(requireOrg(request), request.params.orgId);
      return { success: true };
    },
  );

  app.get(
    '/orgs/:orgId/sso/domains',
    {
      schema: {
        ...common,
        operationId: 'listSsoDomains',
        summary: "The organisation's e-mail domains and their TXT records (admins)",
        params: OrgIdParams,
        response: { 200: SsoDomainsResponse, ...ssoErrors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, domains: await sso.domains(requireOrg(request), request.params.orgId) }),
  );

  app.post(
    '/orgs/:orgId/sso/domains',
    {
      schema: {
        ...common,
        operationId: 'addSsoDomain',
        summary: 'Add an e-mail domain (admins); it counts once its TXT record is verified',
        params: OrgIdParams,
        body: NewSsoDomain,
        response: { 201: SsoDomainResponse, ...ssoErrors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const domain = await sso.addDomain(requireOrg(request), request.params.orgId, request.body.domain);
      reply.code(201);
      return { success: true, domain };
    },
  );

  app.post(
    '/orgs/:orgId/sso/domains/:domainId/verify',
    {
      schema: {
        ...common,
        operationId: 'verifySsoDomain',
        summary: "Look up the domain's TXT record `_vis-verify.<domain>` now and mark it verified (admins)",
        params: SsoDomainParams,
        response: { 200: SsoDomainResponse, ...ssoErrors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, domain: await sso.verifyDomain(requireOrg(request), request.params.orgId, request.params.domainId) }),
  );

  app.delete(
    '/orgs/:orgId/sso/domains/:domainId',
    {
      schema: {
        ...common,
        operationId: 'deleteSsoDomain',
        summary: 'Remove an e-mail domain (admins)',
        params: SsoDomainParams,
        response: { 200: Ok, ...ssoErrors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await sso.deleteDomain(requireOrg(request), request.params.orgId, request.params.domainId);
      return { success: true };
    },
  );
}
