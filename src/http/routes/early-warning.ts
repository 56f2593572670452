import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg, requireUser } from '../plugins/viewer.ts';
import { errorResponses } from '../schemas/common.ts';
import {
  DismissBody,
  InboundSignalBody,
  ObservedAnswer,
  ReportBody,
  SignalDetailSchema,
  SignalParams,
  SignalSecretStatus,
  SignalsQuery,
} from '../schemas/early-warning.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { TransparencyAnswerSchema, TransparencyQuery } from '../schemas/transparency.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// Early warning of an organisation (docs/early-warning.md): members list signals and
// report problems, editors dismiss false alarms, admins make the signing secret, and the
// organisation's own systems post signed observations. Unknown body fields are refused.

/** The shape of an organisation id (IdParam). */
const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/;

const tags = ['early warning'];
const SESSION_SECURITY: Record<string, string[]>[] = [{ sessionCookie: [] }];
const SIGNED: Record<string, string[]>[] = [{ signalSignature: [] }];
/** Inbound bodies are small: a vendor, a few names, a summary. */
export const INBOUND_BODY_LIMIT = 16_384;

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, on the inbound signal route (its signature covers these bytes). */
    signalRawBody: string | null;
    /** The verified message id, on the inbound signal route. */
    signalMessageId: string | null;
  }
}

export async function earlyWarningRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { signals, inbound, transparency } = app.services.earlyWarning;

  app.get(
    '/orgs/:orgId/early-warning/transparency',
    {
      schema: {
        operationId: 'getVendorTransparency',
        summary: "How far vendors' pages lag the organisation's signals over 90 days: lead time, unposted outages, time to resolve (members)",
        description: 'Without `vendor`: every vendor the organisation had a signal about, ranked by `order`. Rules: docs/early-warning.md "Transparency".',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        querystring: TransparencyQuery,
        response: { 200: TransparencyAnswerSchema, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await transparency.forOrg(requireOrg(request), request.params.orgId, request.query)) }),
  );

  app.get(
    '/orgs/:orgId/signals',
    {
      schema: {
        operationId: 'listSignals',
        summary: "The organisation's early-warning signals, newest first, with evidence and transitions",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        querystring: SignalsQuery,
        response: { 200: Type.Object({ success: Type.Boolean(), signals: Type.Array(SignalDetailSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, signals: await signals.list(requireOrg(request), request.params.orgId, request.query) }),
  );

  app.post(
    '/orgs/:orgId/signals/:signalId/dismiss',
    {
      schema: {
        operationId: 'dismissSignal',
        summary: 'Mark a signal a false alarm (editors)',
        tags,
        security: USER_SECURITY,
        params: SignalParams,
        body: Type.Optional(DismissBody),
        response: { 200: Type.Object({ success: Type.Boolean(), signal: SignalDetailSchema }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({
      success: true,
      signal: await signals.dismiss(requireOrg(request), request.params.orgId, request.params.signalId, request.body?.reason),
    }),
  );

  app.post(
    '/orgs/:orgId/reports',
    {
      schema: {
        operationId: 'reportVendorProblem',
        summary: '"We see problems with this vendor" (members): an observation for early warning; one per vendor every 5 minutes, 30 an hour',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: ReportBody,
        response: { 201: ObservedAnswer, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const r = await signals.report(requireOrg(request), request.params.orgId, request.body);
      reply.code(201);
      return { success: true, ...r };
    },
  );

  app.get(
    '/orgs/:orgId/signal-secret',
    {
      schema: {
        operationId: 'getSignalSecret',
        summary: 'Whether the organisation has an inbound signing secret, masked (admins)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: SignalSecretStatus, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await inbound.secretStatus(requireOrg(request), request.params.orgId)) }),
  );

  app.post(
    '/orgs/:orgId/signal-secret',
    {
      schema: {
        operationId: 'rotateSignalSecret',
        summary: 'Make the inbound signing secret, or a new one in place of the old; shown once (admins, web session)',
        tags,
        security: SESSION_SECURITY,
        params: OrgIdParams,
        response: {
          201: Type.Object({
            success: Type.Boolean(),
            secret: Type.String({ description: 'Shown here only' }),
            createdAt: Type.String({ format: 'date-time' }),
          }),
          ...errors,
        },
      },
      config: { auth: 'session' },
    },
    async (request, reply) => {
      const r = await inbound.rotateSecret(requireUser(request), request.params.orgId);
      reply.code(201);
      return { success: true, ...r };
    },
  );

  // The inbound route reads its body as text first: the signature is checked over the exact bytes.
  await app.register(async (signed) => {
    signed.decorateRequest('signalRawBody', null);
    signed.decorateRequest('signalMessageId', null);
    // JSON only (415 otherwise): a text body would reach the signature check as nothing.
    signed.removeAllContentTypeParsers();
    const parseJson = signed.getDefaultJsonParser('error', 'error');
    signed.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: INBOUND_BODY_LIMIT }, (request, body, done) => {
      (request as FastifyRequest).signalRawBody = body as string;
      parseJson(request, body as string, done);
    });
    // Any other type is read up to the same limit (413 beyond, as everywhere), then refused.
    signed.addContentTypeParser('*', { parseAs: 'string', bodyLimit: INBOUND_BODY_LIMIT }, (_request, _body, done) => {
      done(Object.assign(new Error('Unsupported Media Type: send application/json'), { statusCode: 415 }), undefined);
    });
    const typed = signed.withTypeProvider<TypeBoxTypeProvider>();
    typed.post(
      '/orgs/:orgId/signals',
      {
        schema: {
          operationId: 'receiveSignal',
          summary: "An observation from the organisation's own systems, signed with its signing secret (Standard Webhooks headers)",
          tags,
          security: SIGNED,
          params: OrgIdParams,
          body: InboundSignalBody,
          response: {
            202: ObservedAnswer,
            400: errorResponses[400],
            401: Type.Ref('ErrorBody', { description: 'Missing or wrong signature, a timestamp more than 300 s from now, or no signing secret' }),
            404: Type.Ref('ErrorBody', { description: 'Unknown vendor' }),
            409: Type.Ref('ErrorBody', { description: 'Replay: this webhook-id was already received' }),
            500: errorResponses[500],
            503: errorResponses[503],
          },
        },
        config: { auth: 'none' },
        // Before the body is validated: who sent it comes first.
        preValidation: async (request) => {
          const h = request.headers;
          const params = request.params as { orgId?: unknown };
          const orgId = typeof params.orgId === 'string' ? params.orgId : '';
          // A malformed id names no organisation: left to the schema's 400, never sent to the store.
          if (!ORG_ID.test(orgId)) return;
          request.signalMessageId = await inbound.verify(
            orgId,
            { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] },
            request.signalRawBody ?? '',
          );
        },
      },
      async (request, reply) => {
        const r = await inbound.accept(request.params.orgId, request.signalMessageId!, request.body);
        reply.code(202);
        return { success: true, ...r };
      },
    );
  });
}
