import assert from 'node:assert/strict';

// Small pieces shared by the fault tests.

/** Words of SQL or of a driver message that must never reach a client. */
const INTERNALS = /\b(select|insert|update|delete)\b.*\b(from|into|set)\b|ECONNREFUSED|SQLITE_|57P0|terminat|postgres|sqlite|kysely|stack/i;

/**
 * The contract's error body for a 503: success false, the code, a message, the request
 * id (the same as the X-Request-Id header), Retry-After, and nothing internal.
 */
export function assertUnavailable(r: { status: number; headers: Headers; body: any }, context: string) {
  assert.equal(r.status, 503, `${context}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.success, false, context);
  assert.equal(r.body.error, 'unavailable', context);
  assert.equal(typeof r.body.message, 'string', context);
  assert.ok(r.body.message.length > 0, context);
  assert.equal(r.body.requestId, r.headers.get('x-request-id'), context);
  assert.ok(r.headers.get('retry-after'), `${context}: Retry-After`);
  assert.doesNotMatch(JSON.stringify(r.body), INTERNALS, `${context}: no internals in the body`);
}

export const percentile = (values: number[], p: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
