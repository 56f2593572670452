// Payload validation with TypeBox. Schemas are deliberately loose (extra keys are
// allowed everywhere, optional fields stay optional): they only pin down the
// essentials an adapter cannot work without, and the first failure is reported
// with its JSON path so a broken upstream is easy to diagnose from sourceHealth.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { AdapterError } from './adapter.ts';

/**
 * A union failure ("Expected union value") says nothing useful; the alternatives'
 * own errors do. Follow the alternative that got furthest into the value.
 */
function deepest(error: ValueError): ValueError {
  let best = error;
  for (const alternative of error.errors) {
    const sub = alternative.First();
    if (!sub) continue;
    const candidate = deepest(sub);
    // Same depth: the first alternative (the non-null one in Nullable(T)) names the expected type.
    if (candidate.path.length > best.path.length || (best === error && candidate.path.length === error.path.length)) best = candidate;
  }
  return best;
}

export function check<T extends TSchema>(context: string, schema: T, value: unknown): Static<T> {
  if (Value.Check(schema, value)) return value;
  const raw = Value.Errors(schema, value).First();
  const first = raw ? deepest(raw) : undefined;
  const where = first?.path ? first.path : '/';
  const what = first ? first.message : 'does not match the expected shape';
  // Object keys in the path may come from the payload: shown only when plainly a path.
  const publicWhere = /^[\w/.-]{1,120}$/.test(where) ? ` at ${where}` : '';
  throw new AdapterError(`${context}: invalid payload at ${where}: ${what}`, { kind: `invalid payload${publicWhere}` });
}

/** `T | null`, the common shape of optional upstream fields. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An optional string-or-null field. */
export const OptStr = Type.Optional(Nullable(Type.String()));
