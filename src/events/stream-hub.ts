import type { StoredEvent } from '../domain/events.ts';
import type { EventsRepository } from '../store/repositories/events-repository.ts';
import type { EventBus } from '../infra/event-bus.ts';
import type { EventAnnotator } from '../services/impact/record-annotations.ts';
import type { SignalNotice } from '../services/early-warning/early-warning-service.ts';
import { CLOSING, eventFrame, noticeFrame, PING, SHUTDOWN_RETRY_MS, shutdownFrame } from './sse.ts';
import type { ConnectionOwner, StreamConnection } from './stream-connection.ts';

// The process's side of the incident stream: ONE bus subscription for all open
// streams, each event encoded once and written to every matching client.
//
// Order and completeness do not rest on the bus. The hub keeps the highest
// sequence number it has sent (`high`); a batch that does not continue it exactly
// (a message lost or reordered by Redis pub/sub, a poll committed by another
// instance while this one was disconnected) is completed from the event log
// (`after(high)`), once for all clients, and a periodic check of the log's newest
// sequence catches a tail the bus never announced. Sequence numbers follow commit
// order (docs/reliability.md, event order), so the log read after `high` is
// complete up to whatever the bus announced: every event is sent once, in order,
// with its `id:`, and an announced event at or below `high` was already sent
// (or covered by every client's snapshot or replay) and is dropped as a repeat.

interface HubLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface StreamHubOptions {
  bus: EventBus;
  events: Pick<EventsRepository, 'after' | 'latestSeq'>;
  log: HubLog;
  pingMs: number;
  /** How often the log's newest sequence is compared with what was sent (missed bus messages). */
  catchUpMs?: number;
  /** Early-warning notices, written to the live streams of the owning organisation's members. */
  notices?: { subscribe(listener: (n: SignalNotice) => void): () => void };
  /** The affected services of one organisation for incident events (docs/stream.md "Affected services"). */
  annotate?: EventAnnotator;
  /** Called on every heartbeat (keeps shared stream-slot entries alive). */
  onTick?: () => void;
  /**
   * A stream whose response Fastify no longer sees (its socket was taken over) closed:
   * reported as the request it was, lasting the stream's life (docs/stream.md, "What a stream costs").
   */
  ended?: (route: string, seconds: number) => void;
}

const PAGE = 1000;
/**
 * Clients written to between two turns of the event loop (docs/stream.md, "Fan-out"):
 * 20,000 writes in one go would hold the loop for hundreds of milliseconds, during
 * which no other request, connection or timer is served.
 */
export const FANOUT_BATCH = 1000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class StreamHub implements ConnectionOwner {
  private readonly clients = new Set<StreamConnection>();
  /** Streams ended by `close()`, until `cut()`: their sockets are no longer the HTTP server's to cut. */
  private ending: StreamConnection[] = [];
  /** Open streams that carry an organisation's affected services: none, and no event looks for them. */
  private withServices = 0;
  private high = 0;
  private started: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private unsubscribeNotices: (() => void) | null = null;
  private timers: NodeJS.Timeout[] = [];
  /** Batches are handled one after the other, in arrival order. */
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  /** Counters for tests, the benchmark and logs. */
  /**
   * `filled`: events read from the log because the bus skipped a number (a lost
   * announcement); `caughtUp`: read by the periodic catch-up before their announcement
   * arrived (the announcement then counts as a duplicate).
   */
  readonly stats = { sent: 0, filled: 0, caughtUp: 0, dropped: 0, duplicates: 0 };

  private readonly o: StreamHubOptions;

  constructor(o: StreamHubOptions) {
    this.o = o;
  }

  get size() {
    return this.clients.size;
  }

  /** Subscribes on first use: a process without streams pays nothing. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      this.high = await this.o.events.latestSeq();
      this.unsubscribe = this.o.bus.subscribe((events) => this.enqueue(() => this.receive(events)));
      this.unsubscribeNotices = this.o.notices?.subscribe((n) => this.enqueue(() => this.notice(n))) ?? null;
      const ping = setInterval(() => this.ping(), this.o.pingMs);
      const catchUp = setInterval(() => {
        if (this.clients.size) this.enqueue(() => this.catchUp());
      }, this.o.catchUpMs ?? 5000);
      ping.unref();
      catchUp.unref();
      this.timers.push(ping, catchUp);
    })();
    return this.started;
  }

  async attach(conn: StreamConnection): Promise<void> {
    await this.start();
    // Its 'close' may have fired while the hub was starting: it would stay in the set for good.
    if (conn.closed || this.clients.has(conn)) return;
    this.clients.add(conn);
    if (conn.filter.servicesOf) this.withServices++;
  }

  detach(conn: StreamConnection) {
    if (this.clients.delete(conn) && conn.filter.servicesOf) this.withServices--;
    if (conn.route !== null) this.o.ended?.(conn.route, (Date.now() - conn.openedAt) / 1000);
  }

  dropped(conn: StreamConnection, reason: string) {
    this.stats.dropped++;
    this.o.log.info({ reqId: conn.requestId, reason }, 'event stream client dropped');
  }

  /**
   * Calls `each` for every client open when it starts, FANOUT_BATCH at a time with a
   * turn of the event loop in between. Clients attached meanwhile are not visited:
   * their snapshot or replay is read from the log after they attached, so it holds
   * whatever was committed before (docs/stream.md, "Fan-out"); clients closed
   * meanwhile ignore what they are offered.
   */
  private async forEachClient(each: (c: StreamConnection) => void) {
    const list = [...this.clients];
    for (let i = 0; i < list.length; i++) {
      if (i > 0 && i % FANOUT_BATCH === 0) await nextTurn();
      each(list[i]!);
    }
  }

  private enqueue(task: () => Promise<void>) {
    this.chain = this.chain.then(task).catch((err) => this.o.log.warn({ err }, 'stream hub: delivering events failed'));
  }

  private async receive(batch: StoredEvent[]) {
    if (this.closed) return;
    const sorted = [...batch].sort((a, b) => a.seq - b.seq);
    const ahead: StoredEvent[] = [];
    for (const e of sorted) {
      if (e.seq <= this.high) {
        this.stats.duplicates++;
      } else if (!ahead.length || ahead[ahead.length - 1]!.seq !== e.seq) {
        ahead.push(e);
      }
    }
    if (!ahead.length) return;
    const contiguous = ahead.every((e, i) => e.seq === this.high + 1 + i);
    if (contiguous) {
      for (const e of ahead) await this.send(e);
      return;
    }
    // Something between `high` and this batch never arrived (or is on its way out of
    // order): read the log up to the batch's last event; it holds all of them.
    await this.fill(ahead[ahead.length - 1]!.seq, ahead);
  }

  /** Sends everything in the log after `high` (up to `until`, if given), merged with events already in hand. */
  private async fill(until: number | null, inHand: StoredEvent[] = [], counter: 'filled' | 'caughtUp' = 'filled') {
    const bySeq = new Map(inHand.map((e) => [e.seq, e]));
    let from = this.high;
    for (;;) {
      const page = await this.o.events.after(from, PAGE);
      for (const e of page) if (until === null || e.seq <= until) bySeq.set(e.seq, e);
      if (page.length < PAGE || (until !== null && page[page.length - 1]!.seq >= until)) break;
      from = page[page.length - 1]!.seq;
    }
    const list = [...bySeq.values()].filter((e) => e.seq > this.high).sort((a, b) => a.seq - b.seq);
    this.stats[counter] += Math.max(list.length - inHand.length, 0);
    for (const e of list) await this.send(e);
  }

  private async catchUp() {
    if (this.closed) return;
    const latest = await this.o.events.latestSeq();
    if (latest > this.high) await this.fill(latest, [], 'caughtUp');
  }

  /**
   * Encodes the event once (on the first matching client) and offers the same bytes to
   * every matching client; a member's stream of an organisation with services gets the
   * frame of its organisation (encoded once per organisation) with its affected services.
   */
  private async send(e: StoredEvent) {
    if (e.seq > this.high) this.high = e.seq;
    if (e.entityKind !== 'incident') return;
    const own = await this.framesByOrg(e);
    let buf: Buffer | null = null;
    let sent = false;
    await this.forEachClient((c) => {
      if (!c.matches(e)) return;
      sent = true;
      const mine = c.filter.servicesOf ? own?.get(c.filter.servicesOf) : undefined;
      if (mine) return c.offer(e.seq, mine);
      buf ??= eventFrame(e);
      c.offer(e.seq, buf);
    });
    if (sent) this.stats.sent++;
  }

  /**
   * The event's frame for each organisation with services among the matching streams. An
   * organisation whose services cannot be read now gets the plain frame (no field: not
   * known), never a made-up empty list, and the event is still delivered.
   */
  private async framesByOrg(e: StoredEvent): Promise<Map<string, Buffer> | null> {
    const annotate = this.o.annotate;
    if (!annotate || this.withServices === 0) return null;
    const orgs = new Set<string>();
    for (const c of this.clients) if (c.filter.servicesOf && c.matches(e)) orgs.add(c.filter.servicesOf);
    if (!orgs.size) return null;
    const out = new Map<string, Buffer>();
    for (const orgId of orgs) {
      try {
        const hits = (await annotate(orgId, [e]))?.get(e.seq);
        if (hits) out.set(orgId, eventFrame(e, hits));
      } catch (err) {
        this.o.log.warn({ err, orgId }, 'stream hub: affected services not read; event sent without them');
      }
    }
    return out;
  }

  /**
   * A signal of one organisation: to its members' live streams only (docs/early-warning.md
   * "Outputs"), within their vendor filter. A stream still sending its snapshot misses it
   * (there is no resume point for notices); the list has it.
   */
  private async notice(n: SignalNotice) {
    if (this.closed) return;
    let buf: Buffer | null = null;
    await this.forEachClient((c) => {
      if (!c.live || c.filter.noticesFor !== n.orgId) return;
      if (c.filter.vendors && !c.filter.vendors.has(n.signal.vendor)) return;
      buf ??= noticeFrame(n);
      c.write(buf);
    });
  }

  /** One interval for the whole process walks the clients: no timer per connection. */
  private ping() {
    this.o.onTick?.();
    this.forEachClient((c) => {
      if (c.live) c.write(PING);
    }).catch((err) => this.o.log.warn({ err }, 'stream hub: heartbeat failed'));
  }

  /**
   * Ends every stream with a `shutdown` event and a last comment; clients reconnect
   * after the event's `retry:` (spread per client), to another instance if there is one.
   */
  async close() {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.unsubscribe?.();
    this.unsubscribeNotices?.();
    const at = new Date();
    this.ending = [...this.clients];
    for (const c of this.clients) {
      const retryMs = SHUTDOWN_RETRY_MS.min + Math.floor(Math.random() * SHUTDOWN_RETRY_MS.spread);
      c.end(Buffer.concat([shutdownFrame(at, retryMs), CLOSING]));
    }
    this.clients.clear();
    this.withServices = 0;
    await this.chain;
  }

  /**
   * Destroys every stream's connection: the open ones and those ended by `close()` whose
   * client has not taken the end (a client that does not read). The HTTP server's
   * `closeAllConnections()` calls it (src/app.ts): it no longer reaches streams, whose
   * sockets were taken out of it (src/http/stream-socket.ts).
   */
  cut() {
    for (const c of [...this.clients, ...this.ending]) c.destroy();
    this.ending = [];
  }
}
