import { Type } from '@sinclair/typebox';
import { CUSTOM_PAGE_DATA_TYPES, DETECTABLE_PLATFORMS } from '../../domain/custom-sources.ts';
import { MAX_URL_LENGTH } from '../../domain/outbound-url.ts';
import { SOURCE_TYPES } from '../../domain/records.ts';
import { DateTime, Nullable, PLAIN_TEXT_PATTERN, VendorSlug } from './common.ts';

// Status pages a user adds by URL (docs/per-user.md "Custom status pages").

const closed = { additionalProperties: false };

export const CustomPageSchema = Type.Object(
  {
    slug: Type.String({ description: 'Private vendor slug (`u-<account>-<name>`): use it with every vendor route, only with this account' }),
    name: Type.String(),
    pageUrl: Type.String({ description: 'The URL as added' }),
    dataTypes: Type.Array(Type.Union(CUSTOM_PAGE_DATA_TYPES.map((t) => Type.Literal(t)))),
    sources: Type.Array(
      Type.Object(
        {
          type: Type.Union(SOURCE_TYPES.map((t) => Type.Literal(t))),
          url: Type.String(),
          intervalSeconds: Nullable(Type.Integer({ minimum: 1, description: 'Poll interval; null: the scheduler default' })),
        },
        closed,
      ),
      { description: 'What is polled: the detected platform and endpoint(s)' },
    ),
    addedAt: DateTime(),
    lastSuccessAt: Nullable(DateTime({ description: 'Last successful poll; null until the first one' })),
    lastError: Nullable(Type.String({ description: 'Last poll error, if any' })),
  },
  { ...closed, $id: 'CustomStatusPage', description: 'A status page the account added' },
);

const ListFields = {
  success: Type.Boolean(),
  pages: Type.Array(Type.Ref(CustomPageSchema)),
  count: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 0, description: "The plan's cap (0: the plan may not add pages)" }),
  remaining: Type.Integer({ minimum: 0 }),
};

export const CustomPageList = Type.Object(ListFields, { ...closed, description: "The account's status pages" });

export const CustomPageAdded = Type.Object(
  { ...ListFields, page: Type.Ref(CustomPageSchema) },
  { ...closed, description: 'The page was detected and added; it is polled from now on' },
);

export const CustomPageBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      description: 'The status page (or its API endpoint or history feed)',
      examples: ['https://status.example.com'],
    }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: PLAIN_TEXT_PATTERN, description: 'Display name (default: from the host)' })),
  },
  closed,
);

export const CustomPageParams = Type.Object({ slug: VendorSlug }, closed);

export const UndetectedError = Type.Object(
  {
    success: Type.Boolean({ description: 'Always false' }),
    error: Type.Literal('unprocessable'),
    message: Type.String({ description: 'Names the platforms looked for' }),
    requestId: Type.Optional(Type.String()),
    platforms: Type.Array(Type.Union(DETECTABLE_PLATFORMS.map((p) => Type.Literal(p))), { description: 'Every platform looked for' }),
    tried: Type.Array(Type.Object({ url: Type.String(), result: Type.String() }, closed), {
      description: 'Each endpoint probed, in order, and what it gave',
    }),
  },
  { additionalProperties: false, description: 'No supported platform was detected at the address' },
);
