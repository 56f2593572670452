import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../schemas/common.ts';

// Personal alert feeds: /api/v1/feeds/{token}.rss (RSS 2.0) and .atom (Atom 1.0), and
// .ics: the maintenance windows of the user's watchlist as iCalendar (docs/integrations.md).
// The token is the credential (readers cannot send headers), stored only as a
// hash; an unknown token and a switched-off feed both answer 404. Not metered
// (outside the data API): feed polling never counts toward the REST quota.

export const FEEDS_PREFIX = '/api/v1/feeds';
const FORMATS = ['rss', 'atom', 'ics'] as const;
const FILE = /^([A-Za-z0-9_-]{20,100})\.(rss|atom|ics)$/;

function origin(app: FastifyInstance, req: FastifyRequest): string {
  return app.config.publicUrl ?? `${req.protocol}://${req.host}`;
}

export async function feedRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `${FEEDS_PREFIX}/:file`,
    {
      schema: {
        operationId: 'getPersonalFeed',
        summary: 'Personal alert feed (RSS 2.0 or Atom 1.0) and watchlist maintenance calendar (iCalendar)',
        description:
          'The feed URL shown once in the notification preferences (`rss.feed_url`); `.atom` instead of `.rss` gives Atom 1.0; `.ics` gives the maintenance windows of the watchlist (minus muted vendors) as iCalendar (RFC 5545). Scoped like the other channels: watchlist, muted vendors and content filters. 404 for an unknown or rotated token, or a feed that is switched off.',
        tags: ['notifications'],
        params: Type.Object({ file: Type.String({ description: '`{token}.rss`, `{token}.atom` or `{token}.ics`' }) }),
        response: {
          200: {
            description: 'RSS 2.0 for `.rss`, Atom 1.0 for `.atom`, iCalendar for `.ics`',
            content: {
              'application/rss+xml': { schema: Type.String({ description: 'RSS 2.0 document' }) },
              'application/atom+xml': { schema: Type.String({ description: 'Atom 1.0 document' }) },
              'text/calendar': { schema: Type.String({ description: 'iCalendar (RFC 5545) document' }) },
            },
          },
          404: errorResponses[404],
          500: errorResponses[500],
          503: errorResponses[503],
        },
      },
      config: { auth: 'none' },
    },
    async (req, reply) => {
      const m = FILE.exec(req.params.file);
      const notFound = () => reply.code(404).send({ success: false, error: 'not_found', message: 'No such feed', requestId: req.id });
      if (!m) return notFound();
      const token = m[1]!;
      const format = FORMATS.find((f) => f === m[2])!;
      if (format === 'ics') {
        const calendar = await app.services.publicFeeds.watchlistCalendar(token);
        if (calendar === null) return notFound();
        reply.header('cache-control', 'private, no-store');
        return reply.type('text/calendar; charset=utf-8').send(calendar);
      }
      const base = origin(app, req);
      const xml = await app.services.alerts.feed(token, format, `${base}${FEEDS_PREFIX}/${req.params.file}`, base);
      if (xml === null) return notFound();
      reply.header('cache-control', 'private, no-store');
      reply.type(format === 'rss' ? 'application/rss+xml; charset=utf-8' : 'application/atom+xml; charset=utf-8');
      return xml;
    },
  );
}
