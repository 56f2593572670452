import type { TSchema } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { ScimError } from '../../domain/scim-errors.ts';
import type { ScimCaller } from '../../services/scim/scim-tokens-service.ts';
import { noStore } from '../no-store.ts';
import { discovery, groupResource, listResponse, userResource } from '../scim-render.ts';
import {
  ResourceTypeSchema,
  SCIM_MEDIA_TYPE,
  ScimBody,
  ScimErrorSchema,
  ScimGroupSchema,
  ScimIdParams,
  ScimListQuery,
  ScimProjection,
  ScimSchemaSchema,
  ScimUserSchema,
  ServiceProviderConfigSchema,
  scimList,
} from '../schemas/scim.ts';
import { Type } from '@sinclair/typebox';

// SCIM 2.0 service provider (RFC 7643, RFC 7644; docs/teams.md, "SCIM") under
// /scim/v2. The bearer token names the organisation; every answer, errors included, is
// `application/scim+json` in SCIM's shapes. The token is checked in onRequest, after the
// check of unknown query parameters and before the body is read; bodies are at most SCIM_BODY_LIMIT bytes of JSON
// (application/scim+json, application/json or text/json).

export const SCIM_PREFIX = '/scim/v2';
export const SCIM_BODY_LIMIT = 262_144;
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const JSON_TYPES = /^(application\/(scim\+)?json|text\/json)\s*(;|$)/i;

declare module 'fastify' {
  interface FastifyRequest {
    /** The SCIM token's organisation, set on /scim/v2 routes. */
    scimCaller: ScimCaller | null;
  }
}

const SECURITY = [{ scimBearer: [] }];
const tags = ['scim'];
const scimContent = (description: string, schema: TSchema) => ({ description, content: { [SCIM_MEDIA_TYPE]: { schema } } });
const err = (description: string) => scimContent(description, ScimErrorSchema);
const errors = {
  400: err('invalidFilter, invalidValue, invalidSyntax, invalidPath, noTarget, mutability or tooMany'),
  401: err('Missing, unknown or revoked SCIM token'),
  404: err("No such resource in the token's organisation"),
  413: err(`Body larger than ${SCIM_BODY_LIMIT} bytes`),
  415: err('Body not JSON (send application/scim+json)'),
  429: err('Over the per-token rate; see Retry-After'),
  500: err('Internal error'),
};
const writeErrors = { ...errors, 409: err('userName or displayName already in use (uniqueness), or an unconfirmed account holds the address') };

function scimError(reply: FastifyReply, status: number, detail: string, scimType?: string | null) {
  reply.code(status).type(SCIM_MEDIA_TYPE);
  return reply.send({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail });
}

const DOMAIN_STATUS: Partial<Record<DomainError['code'], [number, string | null]>> = {
  invalid_parameter: [400, 'invalidValue'],
  not_found: [404, null],
  unauthorized: [401, null],
  conflict: [409, 'uniqueness'],
  rate_limit_exceeded: [429, null],
};

function caller(request: FastifyRequest): ScimCaller {
  if (!request.scimCaller) throw new ScimError(401, 'A valid SCIM bearer token is required');
  return request.scimCaller;
}

export async function scimRoutes(app: FastifyInstance) {
  const { scim } = app.services;
  const publicUrl = app.config.publicUrl;
  const base = (request: FastifyRequest) => `${publicUrl ?? `${request.protocol}://${request.host}`}${SCIM_PREFIX}`;

  app.decorateRequest('scimCaller', null);
  app.addContentTypeParser(['application/scim+json', 'text/json'], { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.addHook('onSend', noStore);
  app.addHook('onRequest', async (_request, reply) => {
    reply.type(SCIM_MEDIA_TYPE);
  });
  // On each route (not the scope), so the check of unknown query parameters runs first, as everywhere.
  const authenticate = async (request: FastifyRequest) => {
    // `/Users/` reaches `/Users/:id` with an empty id: no resource is named, so no route (as elsewhere).
    if ((request.params as { id?: string } | undefined)?.id === '') throw new ScimError(404, `No SCIM endpoint ${request.method} ${request.url.split('?')[0]}`);
    request.scimCaller = await scim.tokens.authenticate(request.headers.authorization, request.ip);
  };
  app.addHook('preValidation', async (request) => {
    const type = request.headers['content-type'];
    if (request.body !== undefined && request.body !== null && typeof type === 'string' && !JSON_TYPES.test(type)) {
      throw new ScimError(415, 'Send the body as application/scim+json');
    }
  });

  app.setErrorHandler((e: FastifyError, request, reply) => {
    if (e instanceof ScimError) {
      if (e.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="scim"');
      if (e.retryAfter !== null) reply.header('Retry-After', String(e.retryAfter));
      return scimError(reply, e.status, e.message, e.scimType);
    }
    if (e instanceof DomainError) {
      const [status, type] = DOMAIN_STATUS[e.code] ?? [400, null];
      return scimError(reply, status, e.message, type);
    }
    if (e.validation)
      return scimError(
        reply,
        400,
        `Invalid ${e.validationContext ?? 'request'}: ${e.message}`,
        e.validationContext === 'body' ? 'invalidSyntax' : 'invalidValue',
      );
    const status = e.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return scimError(reply, status, status === 413 ? `The body is larger than ${SCIM_BODY_LIMIT} bytes` : e.message, status === 400 ? 'invalidSyntax' : null);
    request.log.error({ err: e }, 'unhandled error');
    return scimError(reply, 500, 'Internal server error');
  });
  app.setNotFoundHandler((request, reply) => scimError(reply, 404, `No SCIM endpoint ${request.method} ${request.url.split('?')[0]}`));

  const route = { config: { auth: 'none' as const }, bodyLimit: SCIM_BODY_LIMIT, onRequest: authenticate };

  // ------------------------------------------------------------- discovery
  app.get(
    '/ServiceProviderConfig',
    {
      ...route,
      schema: {
        operationId: 'scimServiceProviderConfig',
        summary: 'SCIM features this service supports',
        tags,
        security: SECURITY,
        querystring: Type.Object(ScimProjection),
        response: { 200: scimContent('Service provider configuration', ServiceProviderConfigSchema), ...errors },
      },
    },
    async (request) => discovery(base(request)).config,
  );
  app.get(
    '/ResourceTypes',
    {
      ...route,
      schema: {
        operationId: 'scimResourceTypes',
        summary: 'SCIM resource types (User, Group)',
        tags,
        security: SECURITY,
        querystring: Type.Object(ScimProjection),
        response: { 200: scimContent('Resource types', scimList(ResourceTypeSchema)), ...errors },
      },
    },
    async (request) => {
      const types = discovery(base(request)).resourceTypes;
      return listResponse(types, types.length, 1);
    },
  );
  app.get(
    '/Schemas',
    {
      ...route,
      schema: {
        operationId: 'scimSchemas',
        summary: 'SCIM schemas of User and Group as served here',
        tags,
        security: SECURITY,
        querystring: Type.Object(ScimProjection),
        response: { 200: scimContent('Schemas', scimList(ScimSchemaSchema)), ...errors },
      },
    },
    async (request) => {
      const list = discovery(base(request)).schemas;
      return listResponse(list, list.length, 1);
    },
  );

  // ------------------------------------------------------------------ users
  type ListQuery = { filter?: string; startIndex?: number; count?: number; excludedAttributes?: string };
  type IdParams = { id: string };

  app.get(
    '/Users',
    {
      ...route,
      schema: {
        operationId: 'scimListUsers',
        summary: 'Users of the organisation, by filter (userName eq, externalId eq)',
        tags,
        security: SECURITY,
        querystring: ScimListQuery,
        response: { 200: scimContent('ListResponse of Users', scimList(ScimUserSchema)), ...errors },
      },
    },
    async (request) => {
      const q = request.query as ListQuery;
      const r = await scim.users.list(caller(request), q);
      const b = base(request);
      return listResponse(
        r.items.map((u) => userResource(u, b)),
        r.total,
        r.startIndex,
      );
    },
  );

  app.post(
    '/Users',
    {
      ...route,
      schema: {
        operationId: 'scimCreateUser',
        summary: 'Provision a user: an account (or the linked one) and a membership',
        tags,
        security: SECURITY,
        querystring: Type.Object(ScimProjection),
        body: ScimBody('A SCIM User'),
        response: { 201: scimContent('The User', ScimUserSchema), ...writeErrors },
      },
    },
    async (request, reply) => {
      const u = await scim.users.create(caller(request), request.body);
      reply.code(201).header('location', `${base(request)}/Users/${u.id}`);
      return userResource(u, base(request), []);
    },
  );

  app.get(
    '/Users/:id',
    {
      ...route,
      schema: {
        operationId: 'scimGetUser',
        summary: 'One User',
        tags,
        security: SECURITY,
        params: ScimIdParams,
        querystring: Type.Object(ScimProjection),
        response: { 200: scimContent('The User', ScimUserSchema), ...errors },
      },
    },
    async (request) => {
      const c = caller(request);
      const { id } = request.params as IdParams;
      const u = await scim.users.get(c, id);
      return userResource(u, base(request), await scim.users.groupsOf(c, id));
    },
  );

  app.put(
    '/Users/:id',
    {
      ...route,
      schema: {
        operationId: 'scimReplaceUser',
        summary: 'Replace a User (Okta profile updates)',
        tags,
        security: SECURITY,
        params: ScimIdParams,
        querystring: Type.Object(ScimProjection),
        body: ScimBody('The full SCIM User'),
        response: { 200: scimContent('The User', ScimUserSchema), ...writeErrors },
      },
    },
    async (request) => {
      const c = caller(request);
      const { id } = request.params as IdParams;
      const u = await scim.users.replace(c, id, request.body);
      return userResource(u, base(request), await scim.users.groupsOf(c, id));
    },
  );

  app.patch(
    '/Users/:id',
    {
      ...route,
      schema: {
        operationId: 'scimPatchUser',
        summary: 'Change a User; `active: false` removes the membership at once',
        tags,
        security: SECURITY,
        params: ScimIdParams,
        querystring: Type.Object(ScimProjection),
        body: ScimBody('A SCIM PatchOp'),
        response: { 200: scimContent('The User', ScimUserSchema), ...writeErrors },
      },
    },
    async (request) => {
      const c = caller(request);
      const { id } = request.params as IdParams;
      const u = await scim.users.patch(c, id, request.body);
      return userResource(u, base(request), await scim.users.groupsOf(c, id));
    },
  );

  app.delete(
    '/Users/:id',
    {
      ...route,
      schema: {
        operationId: 'scimDeleteUser',
        summary: 'Deprovision a User: the membership goes at once, the account stays',
        tags,
        security: SECURITY,
        params: ScimIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errors },
      },
    },
    async (request, reply) => {
      await scim.users.remove(caller(request), (request.params as IdParams).id);
      return reply.code(204).send();
    },
  );

  // ----------------------------------------------------------------- groups
  const withMembers = (q: { excludedAttributes?: string }) => !(q.excludedAttributes ?? '').split(',').some((a) => a.trim().toLowerCase() === 'members');

  app.get(
    '/Groups',
    {
      ...route,
      schema: {
        operationId: 'scimListGroups',
        summary: 'Groups of the organisation, by filter (displayName eq, externalId eq)',
        tags,
        security: SECURITY,
        querystring: ScimListQuery,
        response: { 200: scimContent('ListResponse of Groups', scimList(ScimGroupSchema)), ...errors },
      },
    },
    async (request) => {
      const q = request.query as ListQuery;
      const members = withMembers(q);
      const r = await scim.groups.list(caller(request), { ...q, withMembers: members });
      const b = base(request);
      return listResponse(
        r.items.map((g) => groupResource(g, b, members)),
        r.total,
        r.startIndex,
      );
    },
  );

  app.post(
    '/Groups',
    {
      ...route,
      schema: {
        operationId: 'scimCreateGroup',
        summary: 'Create a Group (it gives no role until an admin maps it)',
        tags,
        security: SECURITY,
        querystring: Type.Object(ScimProjection),
        body: ScimBody('A SCIM Group'),
        response: { 201: scimContent('The Group', ScimGroupSchema), ...writeErrors },
      },
    },
    async (request, reply) => {
      const g = await scim.groups.create(caller(request), request.body);
      reply.code(201).header('location', `${base(request)}/Groups/${g.id}`);
      return groupResource(g, base(request));
    },
  );

  app.get(
    '/Groups/:id',
    {
      ...route,
      schema: {
        operationId: 'scimGetGroup',
        summary: 'One Group',
        tags,
        security: SECURITY,
        params: ScimIdParams,
        querystring: Type.Object(ScimProjection),
        response: { 200: scimContent('The Group', ScimGroupSchema), ...errors },
      },
    },
    async (request) => {
      const members = withMembers(request.query as { excludedAttributes?: string });
      return groupResource(await scim.groups.get(caller(request), (request.params as IdParams).id, members), base(request), members);
    },
  );

  app.put(
    '/Groups/:id',
    {
      ...route,
      schema: {
        operationId: 'scimReplaceGroup',
        summary: 'Replace a Group, members included',
        tags,
        security: SECURITY,
        params: ScimIdParams,
        querystring: Type.Object(ScimProjection),
        body: ScimBody('The full SCIM Group'),
        response: { 200: scimContent('The Group', ScimGroupSchema), ...writeErrors },
      },
    },
    async (request) => groupResource(await scim.groups.replace(caller(request), (request.params as IdParams).id, request.body), base(request)),
  );

  app.patch(
    '/Groups/:id',
    {
      ...route,
      schema: {
        operationId: 'scimPatchGroup',
        summary: 'Rename a Group, add, remove or replace members',
        tags,
        security: SECURITY,
        params: ScimIdParams,
        querystring: Type.Object(ScimProjection),
        body: ScimBody('A SCIM PatchOp'),
        response: { 204: Type.Null({ description: 'Changed' }), ...writeErrors },
      },
    },
    async (request, reply) => {
      await scim.groups.patch(caller(request), (request.params as IdParams).id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/Groups/:id',
    {
      ...route,
      schema: {
        operationId: 'scimDeleteGroup',
        summary: "Delete a Group; its members' roles follow",
        tags,
        security: SECURITY,
        params: ScimIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errors },
      },
    },
    async (request, reply) => {
      await scim.groups.remove(caller(request), (request.params as IdParams).id);
      return reply.code(204).send();
    },
  );
}
