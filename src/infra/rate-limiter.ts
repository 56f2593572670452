import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { throttledWarn } from './redis.ts';
import type { MaybePromise } from '../domain/maybe-promise.ts';

// Fixed-window counters: a window of W seconds is the interval
// [k*W, (k+1)*W) of the clock, so a day is a UTC day and "usage today" is the
// day counter. A refused request is not counted, so `used` never exceeds the limit.
// The clock is injected (tests jump minutes and days instead of waiting).

export interface LimitWindow {
  /** Policy name as it appears in the RateLimit headers, e.g. `minute`. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface WindowState extends LimitWindow {
  used: number;
  remaining: number;
  /** Seconds until this window starts over (>= 1). */
  resetSeconds: number;
}

export interface LimitResult {
  allowed: boolean;
  windows: WindowState[];
  /** Windows that were already full (empty when allowed). */
  violated: WindowState[];
}

/**
 * What the REST API, the event stream and MCP count requests with. `subject`
 * names who is counted (`o:<orgId>` for an organisation, `ip:<addr>`, `login:...` ...).
 */
export interface RateLimiter {
  readonly kind: 'memory' | 'redis';
  /** Counts one request in every window unless one of them is full; without a promise when counted in-process. */
  consume(subject: string, windows: readonly LimitWindow[]): MaybePromise<LimitResult>;
  /** Current counts without counting. */
  peek(subject: string, windows: readonly LimitWindow[]): Promise<LimitResult>;
  /** Takes back one counted request (a 304 is not counted). */
  refund(subject: string, windows: readonly LimitWindow[]): Promise<void>;
  close(): Promise<void>;
}

export type NowMs = () => number;

export interface Slot {
  /** Which window of the clock `now` falls in. */
  index: number;
  resetMs: number;
}

export function slots(windows: readonly LimitWindow[], now: number): Slot[] {
  const out: Slot[] = new Array(windows.length);
  for (let i = 0; i < windows.length; i++) {
    const size = windows[i].windowSeconds * 1000;
    const index = Math.floor(now / size);
    out[i] = { index, resetMs: (index + 1) * size - now };
  }
  return out;
}

// Runs on every metered request: plain loops, no spreads.
export function result(windows: readonly LimitWindow[], s: Slot[], counts: number[], allowed: boolean): LimitResult {
  const states: WindowState[] = new Array(windows.length);
  const violated: WindowState[] = [];
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i];
    const used = counts[i];
    const state: WindowState = {
      name: w.name,
      limit: w.limit,
      windowSeconds: w.windowSeconds,
      used,
      remaining: w.limit > used ? w.limit - used : 0,
      resetSeconds: Math.max(1, Math.ceil(s[i].resetMs / 1000)),
    };
    states[i] = state;
    if (!allowed && used >= w.limit) violated.push(state);
  }
  return { allowed, windows: states, violated };
}

interface Counter {
  name: string;
  /** Which window of the clock this count belongs to. */
  index: number;
  count: number;
  windowMs: number;
}

/**
 * Counters in this process (the default, and the fallback while Redis is down).
 * One small array of counters per subject, found by window name: no key strings
 * are built or hashed per request.
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly kind = 'memory' as const;
  private readonly subjects = new Map<string, Counter[]>();
  private ops = 0;

  private readonly now: NowMs;

  constructor(now: NowMs) {
    this.now = now;
  }

  private counters(subject: string, windows: readonly LimitWindow[], now: number, create: boolean): (Counter | undefined)[] {
    let list = this.subjects.get(subject);
    if (!list) {
      if (!create) return windows.map(() => undefined);
      list = [];
      this.subjects.set(subject, list);
    }
    const out: (Counter | undefined)[] = new Array(windows.length);
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i];
      const windowMs = w.windowSeconds * 1000;
      const index = Math.floor(now / windowMs);
      let c: Counter | undefined;
      for (const x of list) if (x.name === w.name && x.windowMs === windowMs) c = x;
      if (!c && create) {
        c = { name: w.name, index, count: 0, windowMs };
        list.push(c);
      }
      if (c && c.index !== index) {
        if (create) {
          c.index = index;
          c.count = 0;
        } else c = undefined;
      }
      out[i] = c;
    }
    return out;
  }

  consume(subject: string, windows: readonly LimitWindow[]): LimitResult {
    const now = this.now();
    if (++this.ops % 10_000 === 0) this.sweep(now);
    const s = slots(windows, now);
    const cs = this.counters(subject, windows, now, true);
    const counts = cs.map((c) => c!.count);
    for (let i = 0; i < windows.length; i++) if (counts[i] >= windows[i].limit) return result(windows, s, counts, false);
    for (let i = 0; i < cs.length; i++) counts[i] = ++cs[i]!.count;
    return result(windows, s, counts, true);
  }

  async peek(subject: string, windows: readonly LimitWindow[]): Promise<LimitResult> {
    const now = this.now();
    const s = slots(windows, now);
    const counts = this.counters(subject, windows, now, false).map((c) => c?.count ?? 0);
    return result(windows, s, counts, !windows.some((w, i) => counts[i] >= w.limit));
  }

  async refund(subject: string, windows: readonly LimitWindow[]): Promise<void> {
    for (const c of this.counters(subject, windows, this.now(), false)) if (c && c.count > 0) c.count -= 1;
  }

  /** Forgets subjects whose every window has ended. */
  private sweep(now: number) {
    for (const [subject, list] of this.subjects) {
      if (list.every((c) => Math.floor(now / c.windowMs) !== c.index)) this.subjects.delete(subject);
    }
  }

  async close() {
    this.subjects.clear();
  }
}

// All windows of one request are checked and counted in one atomic step, so two
// instances never both admit the last request of a window.
// ARGV: mode ('c' consume | 'p' peek | 'r' refund), then limit and ttl (ms) per key.
const SCRIPT = `
local mode = ARGV[1]
local n = #KEYS
local counts = {}
for i = 1, n do counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0') end
if mode == 'r' then
  for i = 1, n do
    if counts[i] > 0 then counts[i] = redis.call('DECR', KEYS[i]) end
  end
  return counts
end
local allowed = 1
for i = 1, n do
  if counts[i] >= tonumber(ARGV[2 * i]) then allowed = 0 end
end
if mode == 'c' and allowed == 1 then
  for i = 1, n do
    counts[i] = redis.call('INCR', KEYS[i])
    if counts[i] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1]) end
  end
end
table.insert(counts, 1, allowed)
return counts
`;

type ScriptRunner = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

/** Counters shared by every instance through Redis. */
export class RedisRateLimiter implements RateLimiter {
  readonly kind = 'redis' as const;
  private readonly run: ScriptRunner;

  private readonly prefix: string;
  private readonly now: NowMs;

  constructor(client: Redis, prefix: string, now: NowMs) {
    this.prefix = prefix;
    this.now = now;
    client.defineCommand('visRateLimit', { lua: SCRIPT });
    const cmd = (client as unknown as { visRateLimit: ScriptRunner }).visRateLimit;
    this.run = cmd.bind(client);
  }

  private async exec(mode: 'c' | 'p' | 'r', subject: string, windows: readonly LimitWindow[]) {
    const now = this.now();
    const s = slots(windows, now);
    const args: (string | number)[] = [...s.map((x, i) => `${this.prefix}rl:${subject}|${windows[i].name}|${x.index}`), mode];
    // Keys outlive their window a little; the window index in the key, not the TTL, decides.
    s.forEach((x, i) => args.push(windows[i].limit, x.resetMs + 60_000));
    const reply = await this.run(s.length, ...args);
    return { s, reply };
  }

  async consume(subject: string, windows: readonly LimitWindow[]): Promise<LimitResult> {
    const { s, reply } = await this.exec('c', subject, windows);
    return result(windows, s, reply.slice(1).map(Number), reply[0] === 1);
  }

  async peek(subject: string, windows: readonly LimitWindow[]): Promise<LimitResult> {
    const { s, reply } = await this.exec('p', subject, windows);
    return result(windows, s, reply.slice(1).map(Number), reply[0] === 1);
  }

  async refund(subject: string, windows: readonly LimitWindow[]): Promise<void> {
    await this.exec('r', subject, windows);
  }

  async close() {}
}

/**
 * Redis first; while Redis fails, counting goes on in this process (logged) so
 * the service keeps answering with per-instance limits.
 */
export class FallbackRateLimiter implements RateLimiter {
  readonly kind = 'redis' as const;
  private readonly warn: (err: unknown) => void;

  private readonly primary: RateLimiter;
  private readonly fallback: RateLimiter;

  constructor(primary: RateLimiter, fallback: RateLimiter, log: FastifyBaseLogger) {
    this.primary = primary;
    this.fallback = fallback;
    this.warn = throttledWarn(log, 'rate-limit');
  }

  private attempt<T>(fn: (l: RateLimiter) => MaybePromise<T>): MaybePromise<T> {
    const onError = (err: unknown) => {
      this.warn(err);
      return fn(this.fallback);
    };
    try {
      const r = fn(this.primary);
      return r instanceof Promise ? r.catch(onError) : r;
    } catch (err) {
      return onError(err);
    }
  }

  consume(subject: string, windows: readonly LimitWindow[]) {
    return this.attempt((l) => l.consume(subject, windows));
  }
  async peek(subject: string, windows: readonly LimitWindow[]) {
    return this.attempt((l) => l.peek(subject, windows));
  }
  async refund(subject: string, windows: readonly LimitWindow[]) {
    return this.attempt((l) => l.refund(subject, windows));
  }
  async close() {
    await this.fallback.close();
  }
}
