import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  DeliveriesQuery,
  DeliveriesResponse,
  MarkReadResponse,
  NotificationIdParams,
  NotificationsQuery,
  NotificationsResponse,
  TestAlertBody,
  TestAlertResponse,
} from '../schemas/alerts.ts';
import { errorResponses } from '../schemas/common.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';

// Per-user alert endpoints: in-app notifications, the delivery log and the test
// alert. Same rules as the other per-user routes (docs/per-user.md): key or
// session, the user from the credential only, never cached.

const PER_USER_SECURITY: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }];
const tags = ['notifications'];
const conflict = { 409: Type.Ref('ErrorBody', { description: 'The channel is not configured, or not available on this server' }) };

export async function alertRoutes(fastify: FastifyInstance) {
  // Request and reply types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  const s = app.services;

  app.get(
    '/notifications',
    {
      schema: {
        operationId: 'listNotifications',
        summary: 'In-app notifications',
        description: 'Alerts of the in-app channel, newest first, with the number still unread.',
        tags,
        security: PER_USER_SECURITY,
        querystring: NotificationsQuery,
        response: { 200: NotificationsResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ({ success: true, ...(await s.alerts.notifications(req.viewer, { limit: req.query.limit, unreadOnly: req.query.unread })) }),
  );

  app.post(
    '/notifications/:id/read',
    {
      schema: {
        operationId: 'markNotificationRead',
        summary: 'Mark one notification read',
        description: 'Idempotent. 404 when the caller has no such notification.',
        tags,
        security: PER_USER_SECURITY,
        params: NotificationIdParams,
        response: { 200: MarkReadResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ({ success: true, ...(await s.alerts.markRead(req.viewer, req.params.id)) }),
  );

  app.post(
    '/notifications/read-all',
    {
      schema: {
        operationId: 'markAllNotificationsRead',
        summary: 'Mark every notification read',
        tags,
        security: PER_USER_SECURITY,
        response: { 200: MarkReadResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ({ success: true, ...(await s.alerts.markAllRead(req.viewer)) }),
  );

  app.get(
    '/notification-deliveries',
    {
      schema: {
        operationId: 'listNotificationDeliveries',
        summary: 'Recent alert deliveries and their attempts',
        description:
          'Webhook, PagerDuty, Slack and e-mail deliveries, newest first: status (`pending`, `succeeded`, `failed`, `cancelled`), attempts, the next retry time, the last HTTP status and error, and the last five attempts.',
        tags,
        security: PER_USER_SECURITY,
        querystring: DeliveriesQuery,
        response: { 200: DeliveriesResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ({ success: true, items: await s.alerts.deliveries(req.viewer, req.query) }),
  );

  app.post(
    '/notification-preferences/test',
    {
      schema: {
        operationId: 'sendTestAlert',
        summary: 'Send a test alert on one channel',
        description:
          'Sends a test alert now on `channel`, using the saved settings (also while the channel is switched off), one attempt without retries, and reports the result. A receiver that refuses it gives 200 with `delivered: false`; a channel that is not set up gives 409.',
        tags,
        security: PER_USER_SECURITY,
        body: TestAlertBody,
        response: { 200: TestAlertResponse, ...errorResponses, ...conflict },
      },
      validatorCompiler: strictValidatorCompiler(),
      // Each call sends to the outside: counted even from our own pages (docs/access.md "First-party calls").
      config: { auth: 'user', firstParty: false },
    },
    async (req) => ({ success: true, ...(await s.alerts.sendTest(req.viewer, req.body.channel)) }),
  );
}
