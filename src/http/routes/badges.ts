import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Badge } from '../../domain/badges.ts';
import { DomainError } from '../../domain/errors.ts';
import { renderBadgeSvg } from '../badge-svg.ts';
import { keylessErrorResponses, notModifiedResponse, PLAIN_TEXT_PATTERN, VendorSlug } from '../schemas/common.ts';

// Status badges (docs/integrations.md, "Badges"):
//   /badges/{vendor}.svg, /badges/{vendor}.json (shields.io endpoint),
//   /badges/{vendor}/{component}.svg and .json.
// Outside the data API and without authentication: a badge in a README is fetched
// by browsers and image proxies that send no key, and a key sent anyway is ignored,
// so a badge never counts toward a user's quota. Each request is counted against
// the anonymous per-IP limits, and answers are cached like /vendor-status (30 s).

const BADGES_PREFIX = '/badges';
const CACHE_SECONDS = 30;

const BadgeJson = Type.Object(
  {
    schemaVersion: Type.Integer({ description: 'Always 1', enum: [1] }),
    label: Type.String({ description: 'Left side: the vendor (and component) name' }),
    message: Type.String({ description: 'Right side: the current status', examples: ['partial outage'] }),
    color: Type.String({ description: 'A shields.io named colour', examples: ['orange'] }),
  },
  { additionalProperties: false, description: 'shields.io endpoint badge (https://img.shields.io/endpoint?url=...)' },
);

const ComponentParam = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: PLAIN_TEXT_PATTERN,
  description: 'Component name as in `components[].name` of /vendor-status (URL-encoded, case-insensitive)',
});

const MAPPING =
  'Message and colour: operational brightgreen, degraded yellow, partial outage orange, major outage red, maintenance blue, unknown lightgrey, stale lightgrey (its status page has not been read for a while), rate limited lightgrey (429, over the per-address limit).';

const svgResponse = {
  200: { description: 'SVG image (flat shields.io style)', content: { 'image/svg+xml': { schema: Type.String({ description: 'SVG document' }) } } },
};
const jsonResponse = { 200: BadgeJson };

// Over the per-address limit a badge is still an image (or a shields.io endpoint body):
// an `<img>` shows "rate limited" instead of a broken picture, and proxies keep it only
// until the window resets (docs/integrations.md, "Badges").
const RATE_LIMITED: Badge = { label: 'status', message: 'rate limited', color: 'lightgrey' };
const limitedResponses = {
  svg: {
    429: {
      description: 'Over the per-address limit: a "rate limited" badge, cacheable until `Retry-After`',
      content: { 'image/svg+xml': { schema: Type.String({ description: 'SVG document' }) } },
    },
  },
  json: { 429: { ...BadgeJson, description: 'Over the per-address limit: a "rate limited" shields.io badge, cacheable until `Retry-After`' } },
};

export async function badgeRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const s = app.services.badges;
  const config = { cacheTtlSeconds: CACHE_SECONDS, rateLimit: true, cors: true };

  const svg = (b: Badge) => renderBadgeSvg(b);
  const json = (b: Badge) => ({ schemaVersion: 1, label: b.label, message: b.message, color: b.color });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (!(err instanceof DomainError) || err.code !== 'rate_limit_exceeded') throw err; // the app's error answer
    const wait = typeof err.details.retryAfter === 'number' ? Math.max(1, err.details.retryAfter) : 60;
    reply.code(429).header('Retry-After', String(wait)).header('Cache-Control', `public, max-age=${wait}`);
    if (request.url.split('?')[0]!.endsWith('.json')) return reply.send(json(RATE_LIMITED));
    return reply.type('image/svg+xml; charset=utf-8').send(svg(RATE_LIMITED));
  });

  for (const format of ['svg', 'json'] as const) {
    const response = { ...(format === 'svg' ? svgResponse : jsonResponse), ...keylessErrorResponses, ...limitedResponses[format], ...notModifiedResponse };
    const Format = format.toUpperCase();
    app.get(
      `${BADGES_PREFIX}/:vendor.${format}`,
      {
        schema: {
          operationId: `getVendorBadge${Format}`,
          summary: format === 'svg' ? 'Status badge of a vendor (SVG)' : 'Status badge of a vendor (shields.io endpoint JSON)',
          description: `The vendor's current indicator, as in /vendor-status. ${MAPPING} No key needed; counted per client IP at the anonymous limits; cached 30 s.`,
          tags: ['badges'],
          security: [{}],
          params: Type.Object({ vendor: VendorSlug }),
          response,
        },
        config,
      },
      async (req, reply) => {
        const b = await s.vendor(req.params.vendor);
        if (format === 'json') return json(b);
        return reply.type('image/svg+xml; charset=utf-8').send(svg(b));
      },
    );
    app.get(
      `${BADGES_PREFIX}/:vendor/:component.${format}`,
      {
        schema: {
          operationId: `getComponentBadge${Format}`,
          summary: format === 'svg' ? 'Status badge of one component of a vendor (SVG)' : 'Status badge of one component (shields.io endpoint JSON)',
          description: `The component's current status. ${MAPPING} 404 when the vendor publishes no component of that name.`,
          tags: ['badges'],
          security: [{}],
          params: Type.Object({ vendor: VendorSlug, component: ComponentParam }),
          response,
        },
        config,
      },
      async (req, reply) => {
        const b = await s.component(req.params.vendor, req.params.component);
        if (format === 'json') return json(b);
        return reply.type('image/svg+xml; charset=utf-8').send(svg(b));
      },
    );
  }
}
