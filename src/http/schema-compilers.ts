import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

// Request validators and response serializers, compiled once per process instead of once
// per app (docs/architecture.md, "Schema compilation"). Building the app compiles one
// validator per request part and one serializer per response of every route: most of the
// CPU an app costs to start. A process that builds several apps with the same routes
// (the test suite, the benchmarks) reuses what the first one compiled. Fastify's own
// compilers do the work; only the result is kept, keyed by what the compiled code depends
// on: the shared schemas, the compiler options and the schema itself.

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type RouteSchema = { schema: unknown; httpPart?: string; httpStatus?: string; contentType?: string };
type Compile = (route: RouteSchema) => unknown;

const key = (value: unknown) => JSON.stringify(value) ?? '';

/**
 * Compiled on first use: a route's validator or serializer is built when a request first
 * needs it, not when the app starts (docs/architecture.md, "Schema compilation"). Ajv's
 * validators report their errors on the function and may change the value they check in
 * place (coercion, defaults) through the parent object Fastify hands them.
 */
function onFirstUse(build: () => unknown, kind: 'validator' | 'serializer'): unknown {
  let fn: ((...args: unknown[]) => unknown) & { errors?: unknown; schemaEnv?: unknown };
  const get = () => (fn ??= build() as typeof fn);
  if (kind === 'serializer') return (data: unknown) => get()(data);
  const validate = (data: unknown, ctx?: unknown) => {
    const f = get();
    const result = f.schemaEnv ? f(data, ctx) : f(data);
    validate.errors = f.errors;
    return result;
  };
  validate.errors = undefined as unknown;
  // Tells Fastify to hand over the parent object (see above).
  validate.schemaEnv = true;
  return validate;
}

function reusing(build: (external: unknown, options: unknown) => Compile, optionsKey: (options: unknown) => string, kind: 'validator' | 'serializer') {
  const pools = new Map<string, { compile: Compile; done: Map<string, unknown> }>();
  return (external: unknown, options: unknown): Compile => {
    const poolKey = `${key(external)}\n${optionsKey(options)}`;
    let pool = pools.get(poolKey);
    if (!pool) {
      // The compiler itself (an Ajv instance with the shared schemas) is made on first use too.
      let compiler: Compile | undefined;
      pool = { compile: (route) => (compiler ??= build(external, options))(route), done: new Map() };
      pools.set(poolKey, pool);
    }
    const { compile, done } = pool;
    return (route) => {
      // The part matters to the validator (a querystring is coerced, a body is not).
      const k = `${route.httpPart ?? ''}\n${key(route.schema)}`;
      let fn = done.get(k);
      if (fn === undefined) {
        fn = onFirstUse(() => compile(route), kind);
        done.set(k, fn);
      }
      return fn;
    };
  };
}

/**
 * Node lower-cases header names; Fastify lower-cases a route's header schema to match, but
 * only for its default compiler, so a factory of our own does it here.
 */
function lowerCaseHeaders(route: RouteSchema): RouteSchema {
  const schema = route.schema as { properties?: Record<string, unknown>; required?: string[] } | null;
  if (route.httpPart !== 'headers' || !schema || typeof schema !== 'object' || !schema.properties) return route;
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k.toLowerCase(), v]));
  const required = schema.required?.map((k) => k.toLowerCase());
  return { ...route, schema: { ...schema, properties, ...(required ? { required } : {}) } };
}

const ajvCompilers = AjvCompiler();
const validators = (external: unknown, options: unknown): Compile => {
  const compile = (ajvCompilers as unknown as (e: unknown, o: unknown) => Compile)(external, options);
  return (route) => compile(lowerCaseHeaders(route));
};
const serializers = SerializerSelector();

/** The `schemaController.compilersFactory` of every app this process builds. */
export const sharedCompilers: Compilers = {
  // Ajv plugins are functions (JSON drops them): the pool key names them.
  buildValidator: reusing(
    validators as never,
    (o) => {
      const opts = (o ?? {}) as { customOptions?: unknown; plugins?: unknown[] };
      return `${key(opts.customOptions)}\n${(opts.plugins ?? []).map((p) => (Array.isArray(p) ? p[0] : p)?.name ?? '?').join(',')}`;
    },
    'validator',
  ) as never,
  buildSerializer: reusing(serializers as never, key, 'serializer') as never,
};
