import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { StoredEvent } from '../domain/events.ts';
import { slugVisibleTo } from '../domain/custom-sources.ts';
import type { IncidentStatus } from '../domain/records.ts';

// One open stream: its filter, its resume point and its socket. It starts
// *pending* (attached to the hub, keeping live events aside while the snapshot or
// the replay is written), then goes live. A client that leaves more than
// `maxBufferBytes` unread is dropped; its browser reconnects with Last-Event-ID
// and catches up from the log, and no other client waits for it.
//
// What it keeps is what one open stream costs the server beyond its socket
// (docs/stream.md, "What a stream costs"): the filter, the resume point, the slot's
// release, and ONE 'close' listener. Detaching from the hub, giving the slot back
// and logging a drop go through the hub, shared by every connection, so no
// per-connection closure holds the request's logger or the route's variables.
//
// It writes to `out`: the connection's socket, taken out of Node's HTTP server once the
// response head is sent (src/http/stream-socket.ts), the body then framed here as HTTP
// chunks (`chunked`); or, where the socket could not be taken, the response itself.

/** What a connection reports to (the process's hub): one object for all connections. */
export interface ConnectionOwner {
  detach(conn: StreamConnection): void;
  dropped(conn: StreamConnection, reason: string): void;
}

export interface StreamFilter {
  /** null = every vendor. */
  vendors: ReadonlySet<string> | null;
  status: IncidentStatus | null;
  /**
   * The signed-in reader (null: anyone). A page a user added is that account's only
   * (docs/per-user.md "Custom status pages"); its slug says whose it is.
   */
  readerId: string | null;
  /** The organisation whose early-warning notices this stream gets (its signed-in member's); null: none. */
  noticesFor?: string | null;
  /** The organisation whose affected services this stream's incidents carry (its member's); null: none. */
  servicesOf?: string | null;
}

const PENDING_CAP = 1000;
const CRLF = Buffer.from('\r\n');
/** The last chunk of a chunked body (RFC 9112, 7.1): the response is complete. */
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

/** How a connection writes its body: to the socket (framing chunks itself when `chunked`) or to the response. */
export interface StreamOutput {
  out: Writable;
  chunked: boolean;
  /**
   * The route template to report the stream under when it ends (docs/stream.md, "What a
   * stream costs"), when Fastify no longer sees its response end; null: Fastify reports it.
   */
  route: string | null;
}

export class StreamConnection {
  private pending: { seq: number; buf: Buffer }[] | null = [];
  /** Events up to here were covered by the snapshot or the replay (set when going live). */
  private floor = 0;
  closed = false;
  dropped = false;

  private readonly out: Writable;
  private readonly chunked: boolean;
  /** Reported to the metrics by the hub when the stream closes (null: Fastify does it). */
  readonly route: string | null;
  readonly openedAt = Date.now();
  readonly filter: StreamFilter;
  private readonly maxBufferBytes: number;
  private readonly owner: ConnectionOwner;
  /** Gives the concurrent-stream slot back (idempotent). */
  private readonly release: () => void;
  /** The request id, for the log line of a drop. */
  readonly requestId: string;

  constructor(output: StreamOutput, filter: StreamFilter, maxBufferBytes: number, owner: ConnectionOwner, release: () => void, requestId: string) {
    this.out = output.out;
    this.chunked = output.chunked;
    this.route = output.route;
    this.filter = filter;
    this.maxBufferBytes = maxBufferBytes;
    this.owner = owner;
    this.release = release;
    this.requestId = requestId;
    this.out.on('close', this.onClose);
  }

  private readonly onClose = () => {
    this.closed = true;
    this.pending = null;
    this.owner.detach(this);
    this.release();
  };

  get live() {
    return this.pending === null;
  }

  matches(e: StoredEvent): boolean {
    if (e.entityKind !== 'incident') return false;
    if (!slugVisibleTo(e.vendor, this.filter.readerId)) return false;
    if (this.filter.vendors && !this.filter.vendors.has(e.vendor)) return false;
    if (this.filter.status && (e.payload as { status?: string }).status !== this.filter.status) return false;
    return true;
  }

  /** From the hub: a matching event, already encoded once for every client. */
  offer(seq: number, buf: Buffer) {
    if (this.closed) return;
    if (this.pending) {
      if (this.pending.length >= PENDING_CAP) return this.drop('too many events while starting');
      this.pending.push({ seq, buf });
      return;
    }
    // The hub may announce events this client's replay or snapshot already read from the log.
    if (seq > this.floor) this.write(buf);
  }

  /** Ends the starting phase: events the snapshot or replay already covered (seq <= `upTo`) are skipped. */
  goLive(upTo: number) {
    const held = this.pending ?? [];
    this.pending = null;
    this.floor = upTo;
    for (const p of held) if (p.seq > upTo) this.write(p.buf);
  }

  /**
   * Bytes still unsent from earlier writes decide, not the size of this one: a
   * client that keeps up is never dropped for one large event.
   */
  write(buf: Buffer) {
    if (this.closed) return;
    if (this.out.writableLength > this.maxBufferBytes) return this.drop('client not reading');
    this.send(buf);
  }

  /** One write; as one HTTP chunk (size line, bytes, CRLF in one writev) when the body is framed here. */
  private send(buf: Buffer) {
    const out = this.out;
    if (!this.chunked) {
      out.write(buf);
      return;
    }
    out.cork();
    out.write(`${buf.length.toString(16)}\r\n`, 'latin1');
    out.write(buf);
    out.write(CRLF);
    out.uncork();
  }

  /** For long replays: waits for the socket to drain instead of piling up bytes. */
  async writePaced(buf: Buffer) {
    this.write(buf);
    if (!this.closed && this.out.writableLength > this.maxBufferBytes / 2) {
      await Promise.race([once(this.out, 'drain'), once(this.out, 'close')]);
    }
  }

  private drop(reason: string) {
    if (this.closed) return;
    this.dropped = true;
    this.owner.dropped(this, reason);
    this.out.destroy();
  }

  /** Cuts the connection (a shutdown that cannot wait for the client any longer). */
  destroy() {
    this.out.destroy();
  }

  /** Graceful end (server shutting down): a last comment, then the end of the body. */
  end(last?: Buffer) {
    if (this.closed) return;
    this.closed = true;
    if (last) this.send(last);
    if (this.chunked) this.out.write(LAST_CHUNK);
    this.out.end();
  }
}
