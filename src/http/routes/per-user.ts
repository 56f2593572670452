import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FavoritesQuery } from '../../services/records/favorites-service.ts';
import { errorResponses } from '../schemas/common.ts';
import {
  FavoritesBody,
  FavoritesResponse,
  PreferencesPatchBody,
  PreferencesResponse,
  VendorPathParams,
  WatchlistPutBody,
  WatchlistResponse,
} from '../schemas/per-user.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';

// Per-user endpoints: the caller's watchlist, notification preferences and the
// dashboard bundle. All need an API key or a web session (`config.auth: 'user'`,
// enforced by the viewer plugin, which also checks the Origin of state-changing
// session requests). Every handler works on the authenticated user's rows only:
// the services take the user id from request.viewer, never from the request.

/** A key in either header or a web session; never anonymous. */
const PER_USER_SECURITY: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }];

/** As the unified lists (docs/decisions.md "Caching": others 60 s). */
const BUNDLE_CACHE_SECONDS = 60;

const conflict = {
  409: Type.Ref('ErrorBody', { description: 'The channel to rotate is not configured' }),
};

export async function perUserRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  // Private data, and some answers carry a secret shown once: no cache may keep them.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  const s = app.services;
  const ok = <T extends object>(body: T) => ({ success: true as const, ...body });

  // ---------------------------------------------------------------- watchlist
  const watchlistTags = ['watchlist'];

  app.get(
    '/watchlist',
    {
      schema: {
        operationId: 'getWatchlist',
        summary: "The caller's vendor watchlist",
        tags: watchlistTags,
        security: PER_USER_SECURITY,
        response: { 200: WatchlistResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ok(await s.watchlist.get(req.viewer)),
  );

  app.put(
    '/watchlist',
    {
      schema: {
        operationId: 'replaceWatchlist',
        summary: "Replace the caller's watchlist",
        description:
          'Body `{"vendors": [slugs]}` becomes the whole watchlist (duplicates collapse, order is kept). An unknown slug gives 404 naming it; more vendors than the plan allows gives 403 with `currentPlan`, `limit` and `hint`. Either way nothing changes.',
        tags: watchlistTags,
        security: PER_USER_SECURITY,
        body: WatchlistPutBody,
        response: { 200: WatchlistResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ok(await s.watchlist.replace(req.viewer, req.body.vendors)),
  );

  app.post(
    '/watchlist/:vendor',
    {
      schema: {
        operationId: 'addToWatchlist',
        summary: 'Add one vendor to the watchlist',
        description:
          'Idempotent: adding a listed vendor changes nothing. At the plan cap: 403 with `currentPlan`, `limit` and `hint`; concurrent adds never exceed the cap.',
        tags: watchlistTags,
        security: PER_USER_SECURITY,
        params: VendorPathParams,
        response: { 200: WatchlistResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ok(await s.watchlist.add(req.viewer, req.params.vendor)),
  );

  app.delete(
    '/watchlist/:vendor',
    {
      schema: {
        operationId: 'removeFromWatchlist',
        summary: 'Remove one vendor from the watchlist',
        description: 'Removing a catalog vendor that is not listed changes nothing; an unknown slug gives 404.',
        tags: watchlistTags,
        security: PER_USER_SECURITY,
        params: VendorPathParams,
        response: { 200: WatchlistResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => ok(await s.watchlist.remove(req.viewer, req.params.vendor)),
  );

  // ---------------------------------------------------------- preferences
  const prefTags = ['notifications'];
  const prefResult = (r: Awaited<ReturnType<typeof s.preferences.get>>) =>
    ok({ preferences: r.preferences, ...(r.shownOnce.length ? { shownOnce: r.shownOnce } : {}) });

  app.get(
    '/notification-preferences',
    {
      schema: {
        operationId: 'getNotificationPreferences',
        summary: "The caller's notification preferences",
        description: 'Secrets (webhook signing secret, PagerDuty routing key, RSS feed token) are masked.',
        tags: prefTags,
        security: PER_USER_SECURITY,
        response: { 200: PreferencesResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    },
    async (req) => prefResult(await s.preferences.get(req.viewer)),
  );

  app.put(
    '/notification-preferences',
    {
      schema: {
        operationId: 'updateNotificationPreferences',
        summary: 'Partially update notification preferences',
        description: [
          'Send only what changes: omitted fields stay unchanged, objects merge key by key, lists replace.',
          '`slack_connection`, `webhook.secret` and `rss.feed_url` are read-only and ignored, so a GET body can be sent back.',
          'Unknown fields give 400 naming them. Webhook URLs must be https and must not point to private or loopback hosts (unless allow-listed by the operator).',
          'Setting a webhook URL where none was generates a `whsec_` signing secret, and switching RSS on the first time creates the feed URL: both are shown in clear in this response only (listed in `shownOnce`), masked afterwards.',
          "An `email.address` other than the account's own is saved with `address_status: pending` and a confirmation link (single use, valid 24 hours) is mailed to it; no alert goes there until the link is followed. Changing the address starts over. Links are mailed only when the server has PUBLIC_URL (else 503), at most 5 per account and 3 per address in any 24 hours (else 429 and nothing is saved).",
          'Switching `email.enabled` on where the server has no SMTP server configured is 409, and nothing is saved.',
        ].join(' '),
        tags: prefTags,
        security: PER_USER_SECURITY,
        body: PreferencesPatchBody,
        response: {
          200: PreferencesResponse,
          ...errorResponses,
          409: Type.Ref('ErrorBody', { description: 'E-mail alerts switched on where this server has no SMTP server' }),
        },
      },
      config: { auth: 'user' },
    },
    async (req) => prefResult(await s.preferences.update(req.viewer, req.body)),
  );

  app.post(
    '/notification-preferences/webhook/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the webhook signing secret',
        description:
          'Generates a new `whsec_` secret, shown in clear in this response only. For 24 hours deliveries carry a second signature made with the previous secret (`webhook.previous_secret_expires_at`), so the receiver can switch without losing alerts. 409 when no webhook is configured.',
        tags: prefTags,
        security: PER_USER_SECURITY,
        response: { 200: PreferencesResponse, ...errorResponses, ...conflict },
      },
      config: { auth: 'user' },
    },
    async (req) => prefResult(await s.preferences.rotateWebhookSecret(req.viewer)),
  );

  app.post(
    '/notification-preferences/rss/rotate-token',
    {
      schema: {
        operationId: 'rotateFeedToken',
        summary: 'Replace the personal feed URL',
        description:
          'Generates a new feed token; the old feed URL stops working at once. The new URL is shown in clear in this response only. 409 when the feed is not enabled.',
        tags: prefTags,
        security: PER_USER_SECURITY,
        response: { 200: PreferencesResponse, ...errorResponses, ...conflict },
      },
      config: { auth: 'user' },
    },
    async (req) => prefResult(await s.preferences.rotateFeedToken(req.viewer)),
  );

  // -------------------------------------------------------------- dashboard
  app.post(
    '/dashboard-favorites',
    {
      schema: {
        operationId: 'getDashboardFavorites',
        summary: 'Dashboard bundle for many vendors in one request',
        description:
          'The preferred form for long vendor lists (instead of GET /vendor-stats-favorites or /dashboard-recent-activity). Answers the list envelope with one item: each requested section keyed by vendor slug. Built with a fixed number of queries whatever the number of vendors. Default window 30d, clamped to the plan.',
        tags: ['dashboard'],
        security: PER_USER_SECURITY,
        body: FavoritesBody,
        response: { 200: FavoritesResponse, ...errorResponses },
      },
      // Vendor data for many vendors: metered even from our own pages (docs/access.md "First-party calls").
      // Cached like the public lists (60 s, and a new key on every committed change; docs/per-user.md
      // "Dashboard bundle"), shared by every caller whose account owns no private page.
      config: {
        auth: 'user',
        firstParty: false,
        cacheTtlSeconds: BUNDLE_CACHE_SECONDS,
        cacheKeyOf: (req: FastifyRequest) => s.favorites.bundleKey(req.body as FavoritesQuery, req.viewer),
      },
    },
    async (req) => {
      const { bundle, dataWindow } = await s.favorites.bundle(req.body, req.viewer);
      return app.envelope([bundle], { dataWindow });
    },
  );
}
