import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { CUSTOM_SOURCE_CAPS, DETECTABLE_PLATFORMS, DETECTIONS_PER_HOUR } from '../../domain/custom-sources.ts';
import { ErrorBody, errorResponses } from '../schemas/common.ts';
import { CustomPageAdded, CustomPageBody, CustomPageList, CustomPageParams, UndetectedError } from '../schemas/custom-pages.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './account.ts';

// Status pages the caller added by URL (docs/per-user.md "Custom status pages"), under
// ACCOUNT_PREFIX: list, add (detects the platform), remove. Key or session; session
// writes carry the Origin/CSRF checks of the viewer plugin. Each page then answers on
// every vendor route for this account only.

const caps = Object.entries(CUSTOM_SOURCE_CAPS)
  .filter(([p]) => p !== 'anonymous')
  .map(([p, n]) => `${p} ${n}`)
  .join(', ');

export async function customPageRoutes(fastify: FastifyInstance) {
  // Request and reply types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { customPages } = app.services;
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Cache-Control', 'no-store');
    return payload;
  });
  const tags = ['status pages'];

  app.get(
    '/account/status-pages',
    {
      schema: {
        operationId: 'listCustomStatusPages',
        summary: 'Status pages the caller added by URL',
        tags,
        security: USER_SECURITY,
        response: { 200: CustomPageList, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await customPages.list(request.viewer)) }),
  );

  app.post(
    '/account/status-pages',
    {
      schema: {
        operationId: 'addCustomStatusPage',
        summary: 'Add a status page by URL',
        description:
          `Probes the address for ${DETECTABLE_PLATFORMS.join(', ')} (the URL itself, then each platform's documented endpoints under it) and adds the first that parses as a private vendor polled like a catalog one. ` +
          'Every vendor route (`/vendor-status/{slug}`, `/incidents?vendor=`, the stream, alerts, MCP) answers for it to this account only; anyone else gets 404. ' +
          `https only, and no private or loopback address unless the operator allow-lists it (OUTBOUND_ALLOW_PRIVATE); redirects are checked too. Plans: the lowest allowed plan is CUSTOM_SOURCES_MIN_PLAN (default standard); caps per plan: ${caps}. ` +
          `422 when no platform is detected, naming every endpoint tried; 409 when the page is already in the list; 403 below the plan or at the cap; 429 beyond ${DETECTIONS_PER_HOUR} detections per account and hour.`,
        tags,
        security: USER_SECURITY,
        body: CustomPageBody,
        response: {
          201: CustomPageAdded,
          ...errors,
          409: Type.Ref(ErrorBody, { description: 'The page is already in the list' }),
          429: errorResponses[429],
          422: UndetectedError,
        },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => reply.code(201).send({ success: true, ...(await customPages.add(request.viewer, request.body)) }),
  );

  app.delete(
    '/account/status-pages/:slug',
    {
      schema: {
        operationId: 'removeCustomStatusPage',
        summary: 'Remove a status page the caller added',
        description: 'Stops polling it and deletes its history. 404 for a slug that is not one of the caller’s pages.',
        tags,
        security: USER_SECURITY,
        params: CustomPageParams,
        response: { 200: CustomPageList, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await customPages.remove(request.viewer, request.params.slug)) }),
  );
}
