// Payload validation with TypeBox. Schemas are deliberately loose (extra keys are
// allowed everywhere, optional fields stay optional): they only pin down the
// essentials an adapter cannot work without, and the first failure is reported
// with its JSON path so a broken upstream is easy to diagnose from sourceHealth.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AdapterError } from './adapter.ts';

export function check<T extends TSchema>(context: string, schema: T, value: unknown): Static<T> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  const where = first?.path ? first.path : '/';
  const what = first ? first.message : 'does not match the expected shape';
  throw new AdapterError(`${context}: invalid payload at ${where}: ${what}`);
}

/** `T | null`, the common shape of optional upstream fields. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An optional string-or-null field. */
export const OptStr = Type.Optional(Nullable(Type.String()));
