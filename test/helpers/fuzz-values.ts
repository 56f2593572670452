import fc from 'fast-check';
import type { Json, Schema } from './fuzz-openapi.ts';

// Values the fuzz suite puts in URLs, headers and bodies: valid ones derived
// from the schema (so requests get past validation and reach real data) mixed
// with wrong types, huge strings, hostile unicode, encoding tricks and injection
// strings. A URL piece is generated as its wire form (what goes on the request
// line) together with the text a server would decode from it, which the checks
// use to tell an echo of the input from a leak.

/** A piece of a URL: what is sent, and what it decodes to (for echo detection). */
export interface WirePiece {
  wire: string;
  text: string;
}

/** Real data the generators aim at (so lookups hit rows, not only 404s). */
export interface FuzzPools {
  vendors: string[];
  notificationIds: string[];
  keyIds: string[];
  connectionIds: string[];
  feedFiles: string[];
}

const ASTRAL = ['😀', '𝕏', '🀄', '𠜎', '👩‍👩‍👧‍👦'];
export const UNICODE_STRINGS = [
  '😀😀😀',
  '𝕏𝕪𝕫',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  'e\u0301\u0301\u0301',
  '\u200B\u200C\u200D\uFEFF',
  'a\u0000b',
  '\u0000',
  '\u0001\u001f\u007f',
  '\uD800',
  '\uDFFF',
  'x\uD83Dy',
  'Ω≈ç√∫',
  '１２３',
  '١٢٣',
  'İıſK',
  '\u2028\u2029',
];

export const INJECTION_STRINGS = [
  "' OR '1'='1",
  '1; DROP TABLE users--',
  '" OR 1=1 --',
  "' UNION SELECT password FROM users--",
  "1' AND pg_sleep(5)--",
  "github' --",
  '{"$gt":""}',
  '$where',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  './.env',
  '\r\nSet-Cookie: pwned=1',
  '\r\n\r\n<html>',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '{"a":1}',
  '[1,2]',
  '{',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '1_000',
  ' 1',
  '1 ',
  '+1',
  '',
  ' ',
  '\t',
  '%00',
  '%',
  '%%',
  '*',
  '?',
  '#',
  ';',
  ',',
  ',,,',
  'github,',
  ',github',
];

/** Percent sequences sent as they are: invalid or tricky UTF-8 a decoder must survive. */
export const RAW_PERCENT = [
  '%ED%A0%80', // lone high surrogate in UTF-8 (invalid)
  '%ED%BF%BF', // lone low surrogate
  '%C0%AF', // overlong '/'
  '%C0%80', // overlong NUL
  '%E0%80%AF', // 3-byte overlong '/'
  '%F0%80%80%AF', // 4-byte overlong '/'
  '%F4%90%80%80', // beyond U+10FFFF
  '%FF%FE',
  '%C3%28', // bad continuation byte
  '%00',
  '%0d%0aSet-Cookie:%20x=1',
  '%2e%2e%2f%2e%2e%2f',
  '%252e%252e%252f', // double encoding
  '%u0041', // IIS-style
  '%G0',
  '%',
  '%2',
  '%E2%80%AE', // RTL override, valid
  '%F0%9F%98%80', // astral, valid
  '%EF%BB%BF', // BOM
];

/**
 * Percent-encodes every UTF-16 unit, lone surrogates included (as their
 * 3-byte "WTF-8" form, which is invalid UTF-8: exactly what a server must reject).
 */
export function pctEncode(s: string, keep = /[A-Za-z0-9\-_.~]/): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const u = s.charCodeAt(i);
    if (keep.test(c)) {
      out += c;
      continue;
    }
    let bytes: number[];
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      bytes = [...Buffer.from(s.slice(i, i + 2), 'utf8')];
      i++;
    } else if (u >= 0xd800 && u <= 0xdfff) {
      bytes = [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63)];
    } else {
      bytes = [...Buffer.from(c, 'utf8')];
    }
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** How a decoded text goes on the wire: fully encoded, spaces as '+', or loosely (only what must be). */
const encodings = (text: string): fc.Arbitrary<WirePiece> =>
  fc.constantFrom<WirePiece>(
    { wire: pctEncode(text), text },
    { wire: pctEncode(text, /[A-Za-z0-9\-_.~ ]/).replace(/ /g, '+'), text },
    // Loose: printable ASCII except the URL's own delimiters stays literal.
    { wire: pctEncode(text, /[!$'()*,;:@A-Za-z0-9\-_.~/[\]{}|^`"<>\\]/), text },
  );

export const huge = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom('a', 'é', '😀', '%', '\u0000', 'github,', '\u202E'), fc.constantFrom(300, 2_000, 7_000))
    .map(([u, n]) => u.repeat(Math.ceil(n / u.length)));

/** Characters that break storage, logs or headers when they get through. */
export const HOSTILE_CHARS = ['\u0000', '\uD800', '\uDFFF', '\u202E', '\r\n', '\n', "'", '"', '\\', '%', '😀', '\uFEFF', '\u0085', '\u2028'];

/** A plain word with a hostile character spliced in (free-text fields accept most words). */
const spliced: fc.Arbitrary<string> = fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(...HOSTILE_CHARS), fc.nat()).map(([w, c, at]) => {
  const i = at % (w.length + 1);
  return `${w.slice(0, i)}${c}${w.slice(i)}`;
});

const nastyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: spliced },
  { weight: 4, arbitrary: fc.constantFrom(...INJECTION_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...UNICODE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...ASTRAL, '\uD800', '\u0000', 'a'), maxLength: 12 }) },
  { weight: 1, arbitrary: huge() },
);

/** A hostile text for JSON bodies or decoded values. */
export const nasty = (): fc.Arbitrary<string> => nastyText;

const rawPercent = (): fc.Arbitrary<WirePiece> =>
  fc
    .tuple(fc.constantFrom('', 'github', 'a', '1'), fc.constantFrom(...RAW_PERCENT), fc.constantFrom('', 'x', '1'))
    .map(([a, p, b]) => ({ wire: `${a}${p}${b}`, text: `${a}${p}${b}` }));

/** Valid values for a string schema: enum, pattern, format, or a plain word. */
function validString(schema: Schema, name: string, pools: FuzzPools): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  const lname = name.toLowerCase();
  if (/^vendors?$/.test(lname)) {
    const slug = fc.constantFrom(...pools.vendors);
    // A list parameter's pattern repeats the slug after a comma: `(,[a-z0-9]…)*`.
    if (String(schema.pattern ?? '').includes('(,')) {
      return fc.array(slug, { minLength: 1, maxLength: 4 }).map((a) => a.join(','));
    }
    return slug;
  }
  if (lname === 'file' && pools.feedFiles.length) return fc.constantFrom(...pools.feedFiles);
  // The pattern allows 99999d; the service caps windows at 3650d. Mostly real windows, then.
  if (lname === 'timeperiod') {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('1h', '24h', '1d', '7d', '30d', '90d', '365d', '3650d') },
      { weight: 1, arbitrary: fc.stringMatching(new RegExp(schema.pattern ?? '^[1-9][0-9]{0,4}[dh]$')) },
    );
  }
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    return fc.stringMatching(re).filter((s) => s.length <= 200);
  }
  // Fresh addresses too, so that signups get past "already registered".
  if (schema.format === 'email') return fc.oneof(fc.constantFrom('fuzz@example.com', 'a.b+c@example.org'), fc.emailAddress({ size: 'small' }));
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri' || /url/.test(lname)) return fc.constantFrom('https://hooks.fuzz.invalid/x', 'https://discord.com.fuzz.invalid/api/webhooks/1/a');
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) });
}

/** Ids of real rows for path parameters named `id`, by the path they appear in. */
export function idPool(path: string, pools: FuzzPools): string[] {
  if (path.includes('/notifications/')) return pools.notificationIds;
  if (path.includes('/keys/')) return pools.keyIds;
  if (path.includes('/connections/')) return pools.connectionIds;
  return [];
}

/** Decoded text of a valid value for a parameter schema. */
export function validParamText(schema: Schema, name: string, pools: FuzzPools, path = ''): fc.Arbitrary<string> {
  const ids = name === 'id' ? idPool(path, pools) : [];
  if (ids.length) return fc.oneof(fc.constantFrom(...ids), validString(schema, name, pools));
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER);
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max)).map(String);
    }
    case 'boolean':
      return fc.constantFrom('true', 'false');
    default:
      return validString(schema, name, pools);
  }
}

/** Decoded text of a wrong-typed or out-of-range value. */
function wrongText(schema: Schema): fc.Arbitrary<string> {
  const numeric = ['-1', '0', '1.5', '1e3', '1e400', '99999999999999999999', '-0', '0x1F', 'NaN', '2147483648', '9007199254740993'];
  const extra: string[] = [];
  if (typeof schema.maximum === 'number') extra.push(String(schema.maximum + 1));
  if (typeof schema.minimum === 'number') extra.push(String(schema.minimum - 1));
  if (typeof schema.maxLength === 'number') extra.push('a'.repeat(schema.maxLength + 1));
  return fc.constantFrom('abc', 'true', 'yes', '[]', '{}', 'null', '', ...numeric, ...extra);
}

/** One URL value (query or path) for a parameter. */
export function paramValue(schema: Schema, name: string, pools: FuzzPools, path = ''): fc.Arbitrary<WirePiece> {
  return fc.oneof(
    { weight: 5, arbitrary: validParamText(schema, name, pools, path).chain(encodings) },
    { weight: 2, arbitrary: wrongText(schema).chain(encodings) },
    { weight: 3, arbitrary: nastyText.chain(encodings) },
    { weight: 2, arbitrary: rawPercent() },
  );
}

/** Query parameter names nobody declared, hostile ones included. */
export const unknownParamName = (): fc.Arbitrary<WirePiece> =>
  fc
    .oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'limit[]', 'vendor[0]', 'a.b', 'x', 'Limit', 'LIMIT', ''), nastyText)
    .chain(encodings);

// ---------------------------------------------------------------- JSON bodies

const anyJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>;

/** A value of the wrong JSON type for a schema (or an outright odd one). */
export const wrongJson = (): fc.Arbitrary<Json> =>
  fc.oneof(fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e308, -1e308, '', 'x', [], {}, [null], { '': null }), nastyText, anyJson);

/**
 * A JSON value for a schema. Hostile (the default): mostly valid, with at every
 * level a chance of a wrong type, a boundary break or an unknown field. Not
 * hostile: valid for the schema, though free text still carries hostile
 * characters (it is valid text, and it is what reaches storage).
 */
export function jsonFor(
  schema: Schema,
  resolve: (s: Schema) => Schema,
  pools: FuzzPools,
  opts: { name?: string; depth?: number; hostile?: boolean } = {},
): fc.Arbitrary<Json> {
  const { name = '', depth = 0, hostile = true } = opts;
  const s = resolve(schema);
  const valid = validJson(s, resolve, pools, name, depth, hostile);
  if (!hostile) return s.nullable ? fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: fc.constant(null) }) : valid;
  const arbs: fc.WeightedArbitrary<Json>[] = [
    { weight: 8, arbitrary: valid },
    { weight: 1, arbitrary: wrongJson() },
  ];
  if (s.nullable) arbs.push({ weight: 1, arbitrary: fc.constant(null) });
  return fc.oneof(...arbs);
}

function validJson(s: Schema, resolve: (s: Schema) => Schema, pools: FuzzPools, name: string, depth: number, hostile: boolean): fc.Arbitrary<Json> {
  /** The valid arm, plus (hostile only) arms that break the schema. */
  const mix = (valid: fc.Arbitrary<Json>, ...breaking: fc.WeightedArbitrary<Json>[]) =>
    hostile ? fc.oneof({ weight: 6, arbitrary: valid }, ...breaking) : valid;
  if (Array.isArray(s.enum)) return mix(fc.constantFrom(...(s.enum as Json[])), { weight: 1, arbitrary: nastyText });
  switch (s.type) {
    case 'object': {
      const props = Object.entries<Schema>(s.properties ?? {});
      if (!props.length || depth > 4) return fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 });
      const required = new Set<string>(s.required ?? []);
      const entries = props.map(([k, v]) => {
        const value = jsonFor(v, resolve, pools, { name: k, depth: depth + 1, hostile });
        if (required.has(k) && !hostile) return value.map((val) => [k, val] as const);
        // fc.option's freq is the odds of leaving the field out: 1 in 20 when required, 1 in 2 otherwise.
        return fc.option(value, { nil: undefined, freq: required.has(k) ? 20 : 2 }).map((val) => [k, val] as const);
      });
      // One object in eight carries a field nobody declared.
      const unknown = hostile
        ? fc.oneof(
            { weight: 7, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'extra', 'success', '_csrf', ''), anyJson) },
          )
        : fc.constant(undefined);
      return fc.tuple(fc.tuple(...entries), unknown).map(([kv, extra]) => {
        // JSON.parse-like construction: a "__proto__" key becomes an own property, as on the wire.
        const o: Record<string, Json> = Object.create(null);
        for (const [k, v] of kv) if (v !== undefined) o[k] = v;
        if (extra) Object.defineProperty(o, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
        return o as Json;
      });
    }
    case 'array': {
      const max = typeof s.maxItems === 'number' ? s.maxItems : 10;
      const item = jsonFor(s.items ?? {}, resolve, pools, { name, depth: depth + 1, hostile });
      const min = s.minItems ?? 0;
      return mix(
        fc.array(item, { minLength: min, maxLength: Math.max(min, Math.min(max, 6)) }),
        { weight: 1, arbitrary: fc.array(item, { minLength: max + 1, maxLength: max + 3 }) },
        { weight: 1, arbitrary: fc.constant([] as Json[]) },
      );
    }
    case 'integer':
    case 'number': {
      const min = s.minimum ?? -1000;
      const max = s.maximum ?? 1000;
      return mix(fc.integer({ min, max }), { weight: 1, arbitrary: fc.constantFrom<Json>(min - 1, max + 1, 0.5, -0, 2 ** 53, '1', 1e21) });
    }
    case 'boolean':
      return mix(fc.boolean(), { weight: 1, arbitrary: fc.constantFrom<Json>('true', 1, 0, 'false') });
    case 'string': {
      const free = !s.pattern && !s.format && !Array.isArray(s.enum);
      const text = validString(s, name, pools);
      // Free text: hostile characters are valid content (within the length limit).
      const valid = free ? fc.oneof({ weight: 3, arbitrary: text }, { weight: 2, arbitrary: nastyText.map((t) => t.slice(0, s.maxLength ?? t.length)) }) : text;
      const breaking: fc.WeightedArbitrary<Json>[] = [{ weight: 2, arbitrary: nastyText }];
      if (typeof s.maxLength === 'number') breaking.push({ weight: 1, arbitrary: fc.constant('x'.repeat(s.maxLength + 1)) });
      return mix(valid, ...breaking);
    }
    default:
      // Untyped (read-only fields accepted and ignored): anything, deep nesting included.
      return fc.oneof(
        anyJson,
        fc.integer({ min: 50, max: 1_000 }).map((n) => deepArray(n)),
      );
  }
}

/** `[[[…]]]` nested n deep, as a value (serialised by JSON.stringify). */
function deepArray(n: number): Json {
  let v: Json = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

/** Bodies that are not valid JSON, or valid JSON a careless parser would choke on. */
export const BROKEN_JSON: (string | Buffer)[] = [
  '{',
  '{"vendors":',
  '[1,',
  "{'vendors':[]}",
  '{"vendors":[],}',
  '{"a":1}{"b":2}',
  'undefined',
  'NaN',
  '\u0000',
  '{"vendors":["\u0000"]}',
  '"\\ud800"',
  '{"vendors":["\\ud800"]}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"vendors":[],"vendors":["github"]}',
  '1e999999',
  '\uFEFF{}',
  '['.repeat(10_000) + ']'.repeat(10_000),
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
  Buffer.from('{"vendors":["github"]}', 'utf16le'),
];

/** Content types to send with a body, right and wrong. */
export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/json, text/plain',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/octet-stream',
  '*/*',
  'json',
  ';',
];

/** Header values undici will put on the wire: printable Latin-1 without CR, LF or NUL. */
export const headerJunk = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('', ' ', '*', 'null', 'undefined', '\t', "' OR 1=1--", '<script>', '../../etc/passwd', 'é', 'x'.repeat(4_000), '%00', '%ED%A0%80'),
    fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c !== 0x7f)
        .map((c) => String.fromCharCode(c)),
      maxLength: 40,
    }),
  );
