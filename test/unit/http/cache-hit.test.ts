import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerCacheHit, renderedHeaders, type HeaderList } from '../../../src/http/access/cache-hit.ts';
import type { CachedResponse } from '../../../src/infra/response-cache.ts';

// The one answer to a cache hit (src/http/access/cache-hit.ts): 304 before counting,
// a refusal writes nothing, a 200 carries the entry's rendered headers, the seconds
// left and the limit headers.

const entry = (): CachedResponse => ({
  body: Buffer.from('{"success":true}'),
  etag: '"abc"',
  contentType: 'application/json; charset=utf-8',
  expiresAt: 100_000,
});

interface Written {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer | null;
}

function recorder() {
  const out: Written[] = [];
  const write = (status: 200 | 304, list: HeaderList, body: Buffer | null) => {
    const headers: Record<string, string | number> = {};
    for (let i = 0; i < list.length; i += 2) headers[list[i] as string] = list[i + 1];
    out.push({ status, headers, body });
  };
  return { out, write };
}

describe('cache-hit answer', () => {
  it('renders an entry’s header block once and keeps it with the entry', () => {
    const e = entry();
    const first = renderedHeaders(e);
    assert.equal(renderedHeaders(e), first);
    assert.deepEqual(first.ok, ['etag', '"abc"', 'x-cache', 'HIT', 'content-type', 'application/json; charset=utf-8', 'content-length', 16]);
    assert.notEqual(renderedHeaders(entry()), first);
  });

  it('answers a matching If-None-Match with 304 without counting', async () => {
    const { out, write } = recorder();
    let counted = 0;
    const outcome = await answerCacheHit(
      entry(),
      { ifNoneMatch: 'W/"zzz", "abc"', meter: async () => (counted++, []), nowMs: 0, lead: ['x-request-id', 'r1'] },
      write,
    );
    assert.equal(outcome, 'not-modified');
    assert.equal(counted, 0);
    assert.deepEqual(out, [{ status: 304, headers: { 'x-request-id': 'r1', etag: '"abc"', 'x-cache': 'HIT' }, body: null }]);
  });

  it('writes nothing when the meter refuses', async () => {
    const { out, write } = recorder();
    const outcome = await answerCacheHit(entry(), { ifNoneMatch: '"other"', meter: async () => null, nowMs: 0 }, write);
    assert.equal(outcome, 'refused');
    assert.equal(out.length, 0);
  });

  it('sends the bytes with the rendered headers, the seconds left and the limit headers', async () => {
    const e = entry();
    const { out, write } = recorder();
    const limits = ['ratelimit', '"minute";r=9;t=12', 'x-ratelimit-remaining', 9];
    await answerCacheHit(e, { ifNoneMatch: undefined, meter: async () => limits, nowMs: 40_500, lead: ['vary', 'Origin'] }, write);
    // Time passes: the max-age follows it (the rendered block is not stale).
    await answerCacheHit(e, { ifNoneMatch: undefined, nowMs: 70_000 }, write);
    assert.equal(out[0].status, 200);
    assert.equal(out[0].body, e.body);
    assert.deepEqual(out[0].headers, {
      vary: 'Origin',
      etag: '"abc"',
      'x-cache': 'HIT',
      'content-type': 'application/json; charset=utf-8',
      'content-length': 16,
      'cache-control': 'private, max-age=59',
      ratelimit: '"minute";r=9;t=12',
      'x-ratelimit-remaining': 9,
    });
    assert.equal(out[1].headers['cache-control'], 'private, max-age=30');
    assert.equal(out[1].headers.ratelimit, undefined);
    // The rendered block itself was not changed by either answer.
    assert.equal(renderedHeaders(e).ok.length, 8);
  });

  it('never sends a negative max-age for an entry at its expiry', async () => {
    const { out, write } = recorder();
    await answerCacheHit(entry(), { ifNoneMatch: undefined, nowMs: 100_500 }, write);
    assert.equal(out[0].headers['cache-control'], 'private, max-age=0');
  });
});
