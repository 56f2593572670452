import type { Ajv, ErrorObject } from 'ajv';

// Ajv coerces a query value such as "1e400" or "Infinity" to an infinite number
// and then skips `minimum`/`maximum` (they only look at finite numbers), so the
// value passed validation and reached SQL as a LIMIT (a 500 on SQLite). Integer
// query parameters carry this keyword (QueryInteger in schemas/common.ts) and
// the app's Ajv refuses non-finite numbers for them.

export const FINITE_KEYWORD = 'x-finite';

type KeywordValidate = ((schema: boolean, data: unknown) => boolean) & { errors?: Partial<ErrorObject>[] };

export function finiteNumbers(ajv: Ajv): Ajv {
  const validate: KeywordValidate = (_schema, data) => {
    if (typeof data !== 'number' || Number.isFinite(data)) return true;
    validate.errors = [{ keyword: FINITE_KEYWORD, message: 'must be a finite number', params: {} }];
    return false;
  };
  // Not restricted to `type: 'number'`: Ajv's number keywords are skipped for non-finite values.
  ajv.addKeyword({ keyword: FINITE_KEYWORD, schemaType: 'boolean', errors: true, validate });
  return ajv;
}
