import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { invalidParameter } from '../../domain/errors.ts';
import { keylessErrorResponses, notModifiedResponse, SLUG_LIST_PATTERN, VendorSlug } from '../schemas/common.ts';
import { FEEDS_PREFIX } from './feeds.ts';

// Public vendor feeds (docs/integrations.md, "Public feeds"):
//   /api/v1/feeds/vendors/{vendor}.rss | .atom | .ics   one vendor
//   /api/v1/feeds/vendors.rss | .atom | .ics?vendor=a,b  a list of vendors
// Like badges: no authentication (feed readers and calendar apps send no key), each
// request counted against the anonymous per-IP limits, cached 60 s like the lists,
// readable cross-origin with CORS_ORIGINS.

const PUBLIC_FEEDS_PREFIX = `${FEEDS_PREFIX}/vendors`;
/** Most vendors in one combined feed. */
const MAX_FEED_VENDORS = 50;

const FORMATS = {
  rss: { type: 'application/rss+xml; charset=utf-8', media: 'application/rss+xml', doc: 'RSS 2.0 document', name: 'RSS 2.0' },
  atom: { type: 'application/atom+xml; charset=utf-8', media: 'application/atom+xml', doc: 'Atom 1.0 document', name: 'Atom 1.0' },
  ics: { type: 'text/calendar; charset=utf-8', media: 'text/calendar', doc: 'iCalendar (RFC 5545) document', name: 'iCalendar' },
} as const;
type Format = keyof typeof FORMATS;

const WHAT: Record<Format, string> = {
  rss: 'Incidents and maintenance, newest change first (at most 50 items, the last 7 days plus anything still open).',
  atom: 'Incidents and maintenance, newest change first (at most 50 items, the last 7 days plus anything still open).',
  ics: 'Maintenance windows as VEVENTs (UTC; UID stable across refreshes): the last 7 days, current and upcoming.',
};

export async function publicFeedRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const s = app.services.publicFeeds;
  const config = { cacheTtlSeconds: 60, rateLimit: true, cors: true };

  const render = (slugs: string[], format: Format, selfPath: string) => (format === 'ics' ? s.vendorCalendar(slugs) : s.vendorFeed(slugs, format, selfPath));

  for (const format of ['rss', 'atom', 'ics'] satisfies Format[]) {
    const f = FORMATS[format];
    const response = {
      200: { description: f.name, content: { [f.media]: { schema: Type.String({ description: f.doc }) } } },
      ...keylessErrorResponses,
      ...notModifiedResponse,
    };
    const Name = format === 'ics' ? 'Calendar' : format === 'rss' ? 'Rss' : 'Atom';

    app.get(
      `${PUBLIC_FEEDS_PREFIX}/:vendor.${format}`,
      {
        schema: {
          operationId: `getVendorFeed${Name}`,
          summary: `${f.name} feed of one vendor`,
          description: `${WHAT[format]} Same format for every vendor. No key needed; counted per client IP at the anonymous limits; cached 60 s.`,
          tags: ['feeds'],
          security: [{}],
          params: Type.Object({ vendor: VendorSlug }),
          response,
        },
        config,
      },
      async (req, reply) => {
        const body = await render([req.params.vendor], format, `${PUBLIC_FEEDS_PREFIX}/${req.params.vendor}.${format}`);
        return reply.type(f.type).send(body);
      },
    );

    app.get(
      `${PUBLIC_FEEDS_PREFIX}.${format}`,
      {
        schema: {
          operationId: `getVendorsFeed${Name}`,
          summary: `${f.name} feed of a list of vendors`,
          description: `${WHAT[format]} Up to ${MAX_FEED_VENDORS} vendors; 404 names unknown ones.`,
          tags: ['feeds'],
          security: [{}],
          querystring: Type.Object(
            {
              vendor: Type.String({
                pattern: SLUG_LIST_PATTERN,
                maxLength: MAX_FEED_VENDORS * 64,
                description: `Comma-separated vendor slugs (at most ${MAX_FEED_VENDORS})`,
                examples: ['github,cloudflare'],
              }),
            },
            { additionalProperties: false },
          ),
          response,
        },
        config,
      },
      async (req, reply) => {
        const slugs = [...new Set(req.query.vendor.split(','))];
        if (slugs.length > MAX_FEED_VENDORS) throw invalidParameter('vendor', `at most ${MAX_FEED_VENDORS} vendors`);
        // The self link names the canonical URL: every spelling of the list shares one cache entry.
        const body = await render(slugs, format, `${PUBLIC_FEEDS_PREFIX}.${format}?vendor=${[...slugs].sort().join(',')}`);
        return reply.type(f.type).send(body);
      },
    );
  }
}
