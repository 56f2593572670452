import { type IntegerOptions, type ObjectOptions, OptionalKind, type TObject, type TProperties, type TSchema, Type, type TUnsafe } from '@sinclair/typebox';
import { FINITE_KEYWORD } from '../finite-numbers.ts';

// Helpers that produce OpenAPI 3.0-compatible JSON Schema (no `const`, no type
// arrays): enums as `enum`, nullable as `nullable: true`.

export const StringEnum = <T extends readonly string[]>(values: T, opts: Record<string, unknown> = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });

export const Nullable = <T extends TSchema>(schema: T): TUnsafe<T['static'] | null> => Type.Unsafe<T['static'] | null>({ ...schema, nullable: true });

export const DateTime = (opts: Record<string, unknown> = {}) => Type.String({ format: 'date-time', ...opts });

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
export const SLUG_LIST_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}(,[a-z0-9][a-z0-9-]{0,62})*$';

/**
 * Text a user names things with: no control characters and no lone UTF-16
 * surrogates. PostgreSQL refuses NUL in text (the insert failed with a 500), and
 * neither belongs in a name shown back on pages.
 */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$';

/** An opaque id in a path (API keys, connected applications): letters, digits, `_` and `-`. */
export const IdParam = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description });

export const VendorSlug = Type.String({
  pattern: SLUG_PATTERN,
  description: 'Vendor slug, the `id` of `/vendor-list`',
  examples: ['github'],
});

export const VendorListParam = Type.String({
  pattern: SLUG_LIST_PATTERN,
  maxLength: 20000,
  description: 'Comma-separated vendor slugs',
  examples: ['github,cloudflare'],
});

export const ErrorBody = Type.Object(
  {
    success: Type.Boolean({ description: 'Always false' }),
    error: Type.String({ description: 'Short error name', examples: ['not_found'] }),
    message: Type.String({ description: 'Human-readable text' }),
    requestId: Type.Optional(Type.String({ description: 'Id of the request, also in the X-Request-Id header' })),
    parameter: Type.Optional(Type.String({ description: 'The offending parameter on 400 responses' })),
    limit: Type.Optional(Type.Integer({ description: 'On rate-limit errors: the limit that was exceeded' })),
    used: Type.Optional(Type.Integer({ description: 'On rate-limit errors: requests used' })),
    retryAfter: Type.Optional(Type.Integer({ description: 'On rate-limit errors: seconds until the limit resets' })),
    currentPlan: Type.Optional(Type.String({ description: "The caller's plan" })),
    hint: Type.Optional(Type.String({ description: 'How to get past a 403' })),
    suggestion: Type.Optional(Type.String({ description: 'On an unknown parameter or vendor: the nearest known name (a likely typo)' })),
  },
  { $id: 'ErrorBody', additionalProperties: true, description: 'Error body' },
);

/** The error responses every public endpoint may give. */
export const errorResponses = {
  400: Type.Ref(ErrorBody, { description: 'Bad request: a parameter, the URL or the body is malformed' }),
  401: Type.Ref(ErrorBody, { description: 'Missing or invalid API key' }),
  403: Type.Ref(ErrorBody, { description: 'Direct API call blocked, or plan too low' }),
  404: Type.Ref(ErrorBody, { description: 'Unknown vendor, data type or route' }),
  429: Type.Ref(ErrorBody, { description: 'Rate limit exceeded' }),
  500: Type.Ref(ErrorBody, { description: 'Server error; retry with backoff' }),
  503: Type.Ref(ErrorBody, {
    description: 'Temporarily unavailable: the database cannot be reached or cannot store more data; retry after `Retry-After` seconds',
  }),
};

/** The errors of a public route without authentication (badges, public feeds): no 401 or 403. */
export const keylessErrorResponses = {
  400: errorResponses[400],
  404: errorResponses[404],
  429: errorResponses[429],
  500: errorResponses[500],
  503: errorResponses[503],
};

/** Routes with a response cache answer a matching If-None-Match with 304 and no body. */
export const notModifiedResponse = {
  304: Type.Null({ description: 'Not modified: the If-None-Match ETag is still current (no body, not counted)' }),
};

const DataWindowSchema = Type.Object(
  {
    requested: Nullable(Type.String({ description: 'The timePeriod asked for' })),
    applied: Type.String({ description: 'The window used (`all` when unlimited)' }),
    capped: Type.Boolean({ description: "True when the request exceeded the plan's window" }),
    since: Nullable(DateTime({ description: 'Start of the applied window' })),
  },
  { description: 'History window applied to this response' },
);

/** The contract's list envelope around an item schema. */
export const Envelope = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      success: Type.Boolean(),
      items: Type.Array(item),
      total: Type.Optional(Type.Integer({ minimum: 0 })),
      fetchedAt: Type.Optional(DateTime()),
      source: Type.Optional(StringEnum(['live', 'demo'] as const, { description: '`demo` when served from the simulated fleet' })),
      lastUpdated: Type.Optional(Nullable(DateTime({ description: 'Newest successful poll of any source' }))),
      dataWindow: Type.Optional(DataWindowSchema),
      hint: Type.Optional(Type.String()),
    },
    { description },
  );

/** An integer read from a query string: finite, whatever Ajv's coercion makes of "1e400" (see finite-numbers.ts). */
export const QueryInteger = (opts: IntegerOptions) => Type.Integer({ ...opts, [FINITE_KEYWORD]: true });

/**
 * A query-string object whose parameters with a `default` stay optional to callers (not in
 * `required`, so the OpenAPI document lists them as optional) but are typed as present:
 * validation fills them in (Ajv `useDefaults`, `fastifyOptions` in src/app.ts), so a handler
 * reads `limit: number` from the schema through the type provider.
 */
export function QueryObject<P extends TProperties>(properties: P, options?: ObjectOptions): TObject<P> {
  const schema = Type.Object(properties, options);
  const required = Object.keys(properties).filter((key) => properties[key][OptionalKind] === undefined && properties[key].default === undefined);
  // Only the JSON Schema changes: the static type keeps a defaulted parameter present.
  if (required.length) Reflect.set(schema, 'required', required);
  else Reflect.deleteProperty(schema, 'required');
  return schema;
}

export const LimitParam = (def: number) => QueryInteger({ minimum: 1, maximum: 200, default: def, description: `Page size, 1..200 (default ${def})` });
export const OffsetParam = QueryInteger({ minimum: 0, maximum: 10000, default: 0, description: 'Items to skip, 0..10000' });
export const TimePeriodParam = Type.String({
  pattern: '^[1-9][0-9]{0,4}[dh]$',
  description: 'History window: a number followed by d (days) or h (hours); clamped to the plan cap',
  examples: ['7d', '30d', '90d'],
});
export const SkipCacheParam = Type.Boolean({ description: 'Bypass the response cache (debugging only)' });
