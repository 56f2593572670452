import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { throttledWarn } from './redis.ts';

// Concurrent-stream counters (docs/access.md: open streams per plan). A slot is taken
// when a stream opens and given back when it closes. In one process a map of
// counts; with Redis a sorted set per subject whose members expire unless the
// instance holding them refreshes them, so slots of a crashed instance free
// themselves within SLOT_TTL_MS. Only slots of live connections are refreshed: a
// slot whose connection is gone is released at the next refresh, whatever path
// the connection left by (docs/stream.md).

export interface SlotResult {
  ok: boolean;
  /** Streams open for the subject, this one included when ok. */
  used: number;
  /** Gives the slot back (idempotent). */
  release(): void;
}

export interface StreamSlots {
  readonly kind: 'memory' | 'redis';
  /**
   * Takes a slot. `alive` tells whether the connection holding it is still open: a
   * slot whose connection is gone is given back instead of being kept alive.
   */
  acquire(subject: string, cap: number, alive?: () => boolean): Promise<SlotResult>;
  close(): Promise<void>;
}

const NOOP = () => {};

export class MemoryStreamSlots implements StreamSlots {
  readonly kind = 'memory' as const;
  private readonly counts = new Map<string, number>();

  async acquire(subject: string, cap: number): Promise<SlotResult> {
    const used = this.counts.get(subject) ?? 0;
    if (used >= cap) return { ok: false, used, release: NOOP };
    this.counts.set(subject, used + 1);
    let released = false;
    return {
      ok: true,
      used: used + 1,
      release: () => {
        if (released) return;
        released = true;
        const n = (this.counts.get(subject) ?? 1) - 1;
        if (n <= 0) this.counts.delete(subject);
        else this.counts.set(subject, n);
      },
    };
  }

  open(subject: string): number {
    return this.counts.get(subject) ?? 0;
  }

  async close() {
    this.counts.clear();
  }
}

const SLOT_TTL_MS = 120_000;

// KEYS[1] set; ARGV: now, expiry, member, cap, key ttl.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[4]) then return {0, n} end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, n + 1}
`;

type Acquire = (key: string, ...args: (string | number)[]) => Promise<[number, number]>;

export class RedisStreamSlots implements StreamSlots {
  readonly kind = 'redis' as const;
  private readonly run: Acquire;
  private readonly instance = randomUUID();
  private seq = 0;
  /** This instance's slots: member -> key and the liveness of its connection. */
  private readonly held = new Map<string, { key: string; alive: () => boolean; release: () => void }>();
  private readonly warn: (err: unknown) => void;

  private readonly client: Redis;
  private readonly prefix: string;
  private readonly fallback: MemoryStreamSlots;

  constructor(client: Redis, prefix: string, fallback: MemoryStreamSlots, log: FastifyBaseLogger) {
    this.client = client;
    this.prefix = prefix;
    this.fallback = fallback;
    client.defineCommand('visStreamSlot', { numberOfKeys: 1, lua: ACQUIRE });
    this.run = (client as unknown as { visStreamSlot: Acquire }).visStreamSlot.bind(client);
    this.warn = throttledWarn(log, 'stream-slots');
    this.timer = setInterval(() => this.refresh(), SLOT_TTL_MS / 4);
    this.timer.unref();
  }
  private readonly timer: NodeJS.Timeout;

  async acquire(subject: string, cap: number, alive: () => boolean = () => true): Promise<SlotResult> {
    const key = `${this.prefix}streams:${subject}`;
    const member = `${this.instance}:${++this.seq}`;
    const now = Date.now();
    let reply: [number, number];
    try {
      reply = await this.run(key, now, now + SLOT_TTL_MS, member, cap, SLOT_TTL_MS);
    } catch (err) {
      // Redis down: count in this process (per-instance caps until it is back).
      this.warn(err);
      return this.fallback.acquire(subject, cap);
    }
    const [ok, used] = reply.map(Number) as [number, number];
    if (!ok) return { ok: false, used, release: NOOP };
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.held.delete(member);
      this.client.zrem(key, member).catch((err) => this.warn(err));
    };
    this.held.set(member, { key, alive, release });
    return { ok: true, used, release };
  }

  /** Re-stamps this instance's slots so they outlive SLOT_TTL_MS while their streams are open. */
  private refresh() {
    for (const slot of [...this.held.values()]) if (!slot.alive()) slot.release();
    if (!this.held.size) return;
    const expiry = Date.now() + SLOT_TTL_MS;
    const p = this.client.pipeline();
    for (const [member, { key }] of this.held) {
      p.zadd(key, 'XX', expiry, member);
      p.pexpire(key, SLOT_TTL_MS);
    }
    p.exec().catch((err) => this.warn(err));
  }

  async close() {
    clearInterval(this.timer);
    // Give back what this instance holds so a restart does not count ghosts.
    if (this.held.size) {
      const p = this.client.pipeline();
      for (const [member, { key }] of this.held) p.zrem(key, member);
      this.held.clear();
      await p.exec().catch((err) => this.warn(err));
    }
  }
}
