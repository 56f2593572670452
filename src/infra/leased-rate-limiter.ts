import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { result, slots, type LimitResult, type LimitWindow, type NowMs, type RateLimiter, type Slot } from './rate-limiter.ts';
import type { MaybePromise } from '../domain/maybe-promise.ts';

// Counting against Redis in local batches (docs/access.md, "Leased counting"). For
// windows of at least LEASE_MIN_LIMIT requests, an instance takes a slice of a
// subject's quota from the shared counters in one atomic step (all windows at once,
// never past a limit) and spends it locally, so a busy account costs one Redis round
// trip per slice instead of one per request. What a slice does not use goes back to
// the shared counters when the slice idles for SETTLE_MS, when a window ends, and on
// close. Smaller limits (every plan's own figures) are counted exactly, one script
// call per request, by the limiter this one wraps.
//
// Exactness: admissions never exceed a limit: every admitted request was counted in
// Redis before it was admitted. The price is on the other side: tokens an instance
// holds unused (at most min(MAX_SLICE, remaining / 8) - 1 per subject) read as used
// to the other instances until spent or given back (within SETTLE_MS of idling), so
// another instance can refuse that many requests early, and near the end of a window
// slices shrink to one request, which is exact counting again.

export const LEASE_MIN_LIMIT = 1000;
export const MAX_SLICE = 64;
export const SETTLE_MS = 500;
/** How long Redis remembers a slice's grant, for taking back one whose answer was lost. */
const LEASE_RECORD_MS = 120_000;

// KEYS: the counters, then the slice's own key. ARGV: wanted slice, then limit and ttl (ms)
// per counter. Grants min(wanted, the least room left / 8), at least 1 while every window
// has room; 0 = refused, nothing counted. The grant is also written under the slice's key
// (kept LEASE_RECORD_MS) so that a slice whose answer never arrived can be taken back.
const LEASE = `
local want = tonumber(ARGV[1])
local n = #KEYS - 1
local counts = {}
local room = nil
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  local left = tonumber(ARGV[2 * i]) - counts[i]
  if room == nil or left < room then room = left end
end
local grant = 0
if room >= 1 then
  grant = math.max(1, math.min(want, math.floor(room / 8)))
  for i = 1, n do
    counts[i] = redis.call('INCRBY', KEYS[i], grant)
    if counts[i] == grant then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1]) end
  end
  redis.call('SET', KEYS[n + 1], grant, 'PX', ARGV[2 * n + 2])
end
table.insert(counts, 1, grant)
return counts
`;

// KEYS: the counters, then the slice's key. Takes back a slice whose grant this instance
// never learnt (the call failed or timed out after Redis ran it): once, and only if it
// was granted.
const RECLAIM = `
local n = #KEYS - 1
local g = tonumber(redis.call('GET', KEYS[n + 1]) or '0')
if g > 0 then
  for i = 1, n do
    local c = tonumber(redis.call('GET', KEYS[i]) or '0')
    if c > 0 then redis.call('DECRBY', KEYS[i], math.min(g, c)) end
  end
  redis.call('DEL', KEYS[n + 1])
end
return g
`;

// ARGV: how many unused tokens go back to every key (never below zero).
const GIVE_BACK = `
local n = tonumber(ARGV[1])
for i = 1, #KEYS do
  local c = tonumber(redis.call('GET', KEYS[i]) or '0')
  if c > 0 then redis.call('DECRBY', KEYS[i], math.min(n, c)) end
end
return 1
`;

type ScriptRunner = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

interface Lease {
  windows: readonly LimitWindow[];
  /** The window index (of the clock) per window this slice was taken in. */
  indices: number[];
  keys: string[];
  /** Shared counts right after the slice was taken (it included the whole slice). */
  counts: number[];
  /** Taken but not spent. */
  tokens: number;
  lastUse: number;
}

const minLimit = (windows: readonly LimitWindow[]) => {
  let m = Infinity;
  for (const w of windows) if (w.limit < m) m = w.limit;
  return m;
};

export class LeasedRateLimiter implements RateLimiter {
  readonly kind = 'redis' as const;
  private readonly leaseCmd: ScriptRunner;
  private readonly giveBackCmd: ScriptRunner;
  private readonly reclaimCmd: ScriptRunner;
  /** Slices get keys of their own: this instance's id and a counter. */
  private readonly instanceId = randomUUID();
  private leaseCount = 0;
  private readonly leases = new Map<string, Lease>();
  /** Slices being taken, by subject: concurrent requests of a subject wait for one. */
  private readonly taking = new Map<string, Promise<void>>();
  /**
   * Give-backs of idle slices still on their way, by subject. Anything that counts the
   * subject waits for them first: a script's first call can come back NOSCRIPT and be
   * sent again behind later commands, so the order of sending alone does not say that
   * Redis took the tokens back before it counts the next request.
   */
  private readonly returning = new Map<string, Promise<void>>();
  private readonly timer: NodeJS.Timeout;

  private readonly prefix: string;
  private readonly now: NowMs;
  /** Exact counting (small limits, peeks and refunds outside a slice). */
  private readonly exact: RateLimiter;
  private readonly onError: (err: unknown) => void;

  constructor(
    client: Redis,
    prefix: string,
    now: NowMs,
    /** Exact counting (small limits, peeks and refunds outside a slice). */
    exact: RateLimiter,
    onError: (err: unknown) => void = () => {},
  ) {
    this.prefix = prefix;
    this.now = now;
    this.exact = exact;
    this.onError = onError;
    client.defineCommand('visRateLease', { lua: LEASE });
    client.defineCommand('visRateGiveBack', { lua: GIVE_BACK });
    client.defineCommand('visRateReclaim', { lua: RECLAIM });
    const c = client as unknown as { visRateLease: ScriptRunner; visRateGiveBack: ScriptRunner; visRateReclaim: ScriptRunner };
    this.leaseCmd = c.visRateLease.bind(client);
    this.giveBackCmd = c.visRateGiveBack.bind(client);
    this.reclaimCmd = c.visRateReclaim.bind(client);
    this.timer = setInterval(() => this.settleIdle(), SETTLE_MS);
    this.timer.unref();
  }

  private keysOf(subject: string, windows: readonly LimitWindow[], s: Slot[]) {
    const keys: string[] = new Array(windows.length);
    for (let i = 0; i < windows.length; i++) keys[i] = `${this.prefix}rl:${subject}|${windows[i].name}|${s[i].index}`;
    return keys;
  }

  private static matches(l: Lease, windows: readonly LimitWindow[], s: Slot[]) {
    if (l.windows !== windows) return false;
    for (let i = 0; i < s.length; i++) if (l.indices[i] !== s[i].index) return false;
    return true;
  }

  /**
   * Gives the subject's slice back before anything is counted another way (exactly, for
   * other windows, or in a new window of the clock), so that count sees only what was spent.
   */
  private async settle(subject: string) {
    await this.returned(subject);
    const l = this.leases.get(subject);
    if (!l) return;
    this.leases.delete(subject);
    this.giveBack(subject, l);
    await this.returned(subject);
  }

  /** Sends the slice's unused tokens back, tracked in `returning` until Redis has them. */
  private giveBack(subject: string, l: Lease) {
    if (l.tokens <= 0) return;
    const n = l.tokens;
    l.tokens = 0;
    this.track(
      subject,
      this.giveBackCmd(l.keys.length, ...l.keys, n).then(() => {}),
    );
  }

  /** Keeps a give-back or take-back in flight until it is done (see `returning`). */
  private track(subject: string, work: Promise<void>) {
    const p = work.catch((err) => this.onError(err));
    const before = this.returning.get(subject);
    const all = before ? Promise.all([before, p]).then(() => {}) : p;
    this.returning.set(subject, all);
    void all.then(() => {
      if (this.returning.get(subject) === all) this.returning.delete(subject);
    });
  }

  /** Waits for the subject's give-backs in flight (see `returning`). */
  private async returned(subject: string) {
    const p = this.returning.get(subject);
    if (p) await p;
  }

  private spend(l: Lease, windows: readonly LimitWindow[], s: Slot[]): LimitResult {
    l.tokens -= 1;
    l.lastUse = performance.now();
    const counts = new Array<number>(l.counts.length);
    for (let i = 0; i < counts.length; i++) counts[i] = l.counts[i] - l.tokens;
    return result(windows, s, counts, true);
  }

  private async take(subject: string, windows: readonly LimitWindow[], s: Slot[]): Promise<LimitResult | null> {
    const keys = this.keysOf(subject, windows, s);
    const sliceKey = `${this.prefix}rl:slice:${this.instanceId}:${++this.leaseCount}`;
    const args: (string | number)[] = [...keys, sliceKey, MAX_SLICE];
    for (let i = 0; i < windows.length; i++) args.push(windows[i].limit, s[i].resetMs + 60_000);
    args.push(LEASE_RECORD_MS);
    let reply: number[];
    try {
      reply = (await this.leaseCmd(keys.length + 1, ...args)).map(Number);
    } catch (err) {
      // The answer was lost (a timeout, a dropped connection), not necessarily the slice:
      // Redis may have counted it. Take it back, if it was granted, before anything counts
      // this subject again (docs/access.md, "Leased counting").
      this.track(
        subject,
        this.reclaimCmd(keys.length + 1, ...keys, sliceKey).then(() => {}),
      );
      throw err;
    }
    const grant = reply[0];
    const counts = reply.slice(1);
    // Refused: the exact limiter's answer (what is used, which window is full).
    if (grant === 0) return result(windows, s, counts, false);
    const l: Lease = { windows, indices: s.map((x) => x.index), keys, counts, tokens: grant, lastUse: performance.now() };
    this.leases.set(subject, l);
    return null;
  }

  consume(subject: string, windows: readonly LimitWindow[]): MaybePromise<LimitResult> {
    // A token of this instance's slice is spent at once; anything else may have to wait for Redis.
    if (minLimit(windows) >= LEASE_MIN_LIMIT && !this.returning.has(subject) && !this.taking.has(subject)) {
      const l = this.leases.get(subject);
      if (l && l.tokens > 0) {
        const s = slots(windows, this.now());
        if (LeasedRateLimiter.matches(l, windows, s)) return this.spend(l, windows, s);
      }
    }
    return this.consumeWaiting(subject, windows);
  }

  private async consumeWaiting(subject: string, windows: readonly LimitWindow[]): Promise<LimitResult> {
    if (minLimit(windows) < LEASE_MIN_LIMIT) {
      await this.settle(subject);
      return this.exact.consume(subject, windows);
    }
    // Bounded: every turn spends, waits for a slice being taken, or takes one (which
    // grants at least one request or refuses); a request that keeps losing the race
    // for slices to concurrent ones is counted exactly.
    for (let attempt = 0; attempt < 64; attempt++) {
      const s = slots(windows, this.now());
      const l = this.leases.get(subject);
      if (l && !LeasedRateLimiter.matches(l, windows, s)) {
        await this.settle(subject);
        continue;
      }
      if (l && l.tokens > 0) return this.spend(l, windows, s);
      const pending = this.taking.get(subject);
      if (pending) {
        // A slice that could not be taken (Redis slow or down) fails only the request that
        // asked for it; the others try again themselves.
        await pending.catch(() => {});
        continue;
      }
      let refused: LimitResult | null = null;
      const p = this.returned(subject)
        .then(() => this.take(subject, windows, s))
        .then((r) => {
          refused = r;
        });
      this.taking.set(subject, p);
      try {
        await p;
      } finally {
        if (this.taking.get(subject) === p) this.taking.delete(subject);
      }
      if (refused) return refused;
    }
    await this.settle(subject);
    return this.exact.consume(subject, windows);
  }

  /** Shared counts, less what this instance holds unused. */
  async peek(subject: string, windows: readonly LimitWindow[]): Promise<LimitResult> {
    await this.returned(subject);
    const s = slots(windows, this.now());
    const l = this.leases.get(subject);
    if (l && !LeasedRateLimiter.matches(l, windows, s)) await this.settle(subject);
    const r = await this.exact.peek(subject, windows);
    const held = this.leases.get(subject)?.tokens ?? 0;
    if (held === 0) return r;
    const counts = r.windows.map((w) => Math.max(0, w.used - held));
    return result(windows, s, counts, !windows.some((w, i) => counts[i] >= w.limit));
  }

  async refund(subject: string, windows: readonly LimitWindow[]): Promise<void> {
    const l = this.leases.get(subject);
    // Back into the slice: given back to Redis with the rest of it.
    if (l && LeasedRateLimiter.matches(l, windows, slots(windows, this.now()))) {
      l.tokens += 1;
      return;
    }
    await this.settle(subject);
    await this.exact.refund(subject, windows);
  }

  /** Gives back what idle slices hold, so other instances may use it. */
  settleIdle() {
    const before = performance.now() - SETTLE_MS;
    for (const [subject, l] of this.leases) {
      if (l.lastUse > before) continue;
      this.leases.delete(subject);
      this.giveBack(subject, l);
    }
  }

  async close() {
    clearInterval(this.timer);
    for (const [subject, l] of this.leases) this.giveBack(subject, l);
    this.leases.clear();
    await Promise.all(this.returning.values());
    await this.exact.close();
  }
}
