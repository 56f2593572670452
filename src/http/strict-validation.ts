import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { DomainError } from '../domain/errors.ts';

// Validation for routes that take a JSON body of settings. The app-wide Ajv
// coerces types and silently drops unknown properties, which suits query
// strings but not bodies that change stored state: here nothing is coerced or
// removed, every problem is collected, and the 400 names every unknown field.
// Register it in the encapsulated plugin of those routes only.

const MAX_LISTED = 10;

/** JSON path as the API names fields: `webhook.url`, `vendors[3]`. */
function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  let out = '';
  for (const p of parts) {
    const key = p.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(key) ? `[${key}]` : out ? `.${key}` : key;
  }
  return out;
}

function describe(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'enum') return `must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
  if (e.keyword === 'pattern' && e.instancePath.match(/vendors?(\/\d+)?$/)) return 'is not a valid vendor slug';
  if (e.keyword === 'format') return `must be a valid ${params.format}`;
  return e.message ?? 'is invalid';
}

function validationError(errors: ErrorObject[], part: string): DomainError {
  const unknown = [
    ...new Set(
      errors
        .filter((e) => e.keyword === 'additionalProperties')
        .map((e) => fieldName(e.instancePath, (e.params as { additionalProperty: string }).additionalProperty)),
    ),
  ];
  if (unknown.length) {
    const listed = unknown
      .slice(0, MAX_LISTED)
      .map((u) => `'${u}'`)
      .join(', ');
    return new DomainError(
      'invalid_parameter',
      `Unknown field${unknown.length > 1 ? 's' : ''} in ${part}: ${listed}${unknown.length > MAX_LISTED ? ', …' : ''}`,
      { parameter: unknown[0], unknownFields: unknown },
    );
  }
  const problems: { field: string; why: string }[] = [];
  for (const e of errors) {
    const field = e.keyword === 'required' ? fieldName(e.instancePath, (e.params as { missingProperty: string }).missingProperty) : fieldName(e.instancePath);
    const why = e.keyword === 'required' ? 'is required' : describe(e);
    // `nullable` schemas report the type error twice; keep one line per field and reason.
    if (!problems.some((p) => p.field === field && p.why === why)) problems.push({ field: field || part, why });
  }
  if (!problems.length) return new DomainError('invalid_parameter', `Invalid ${part}`, { parameter: part });
  const first = problems[0]!;
  const message =
    problems.length === 1
      ? `Invalid parameter '${first.field}': ${first.why}`
      : `Invalid ${part}: ${problems
          .slice(0, MAX_LISTED)
          .map((p) => `'${p.field}' ${p.why}`)
          .join('; ')}`;
  return new DomainError('invalid_parameter', message, { parameter: first.field, fields: problems.map((p) => p.field) });
}

// One Ajv for the process and one validator per distinct schema, shared by every app the
// process builds (docs/architecture.md, "Schema compilation"): five plugins use this compiler,
// and a new Ajv each compiled the JSON Schema meta-schema again before their own schemas.
let strictAjv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function compileStrict(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    strictAjv ??= addFormats.default(new Ajv({ allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false, strict: false }));
    validate = strictAjv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** A validator compiler without coercion or property removal, reporting all problems. */
// biome-ignore lint/suspicious/noExplicitAny: Fastify's compiler type is generic over any schema
export function strictValidatorCompiler(): FastifySchemaCompiler<any> {
  return ({ schema, httpPart }) => {
    const validate = compileStrict(schema as object);
    const part = httpPart === 'body' ? 'body' : (httpPart ?? 'request');
    return (data: unknown) => {
      if (validate(data)) return { value: data };
      return { error: validationError(validate.errors ?? [], part) };
    };
  };
}
