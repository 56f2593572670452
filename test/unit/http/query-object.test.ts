import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { LimitParam, QueryObject, StringEnum } from '../../../src/http/schemas/common.ts';

// QueryObject (src/http/schemas/common.ts): the JSON Schema a route validates with and the
// OpenAPI document shows must be what Type.Object with Type.Optional gave before, so a
// parameter with a default stays optional to callers while the handler's type has it.

test('a parameter with a default is left out of required, as Type.Optional did', () => {
  const before = Type.Object(
    { limit: Type.Optional(LimitParam(50)), status: Type.Optional(StringEnum(['open', 'closed'] as const)) },
    { additionalProperties: false },
  );
  const now = QueryObject({ limit: LimitParam(50), status: Type.Optional(StringEnum(['open', 'closed'] as const)) }, { additionalProperties: false });
  assert.equal(JSON.stringify(now), JSON.stringify(before));
  assert.equal('required' in now, false);
});

test('a parameter without a default and not optional stays required', () => {
  const now = QueryObject({ vendor: Type.String(), limit: LimitParam(20), q: Type.Optional(Type.String()) });
  assert.deepEqual(now.required, ['vendor']);
  const before = Type.Object({ vendor: Type.String(), limit: Type.Optional(LimitParam(20)), q: Type.Optional(Type.String()) });
  assert.equal(JSON.stringify(now), JSON.stringify(before));
});
