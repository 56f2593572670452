import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';

// Takes an event stream's socket out of Node's HTTP server once the response head is
// written (docs/stream.md, "What a stream costs"). A stream never reads another
// request on its connection and its response never ends while it is open, yet Node
// keeps the whole HTTP machinery of the connection for its life: the parser (native
// memory), the request and the response with their stream states, the header block,
// nine bound listeners on the socket, and through the response Fastify's request and
// reply. Node releases exactly these when a connection is upgraded (WebSocket): the
// server's listeners leave the socket, the parser goes back to its pool, the response
// lets go of the socket. This does the same for a response that has started: what
// stays is the socket, and the stream writes its body to it itself (chunked when the
// response is, `chunked` below).

/**
 * The listeners Node's HTTP server puts on a connection's socket (its `connectionListener`
 * and the response's `onServerResponseClose`), by function name: the upgrade path removes
 * the same ones by reference, which are not reachable from outside.
 */
const SERVER_LISTENERS: Record<string, readonly string[]> = {
  data: ['bound socketOnData'],
  end: ['bound socketOnEnd'],
  close: ['bound socketOnClose', 'onServerResponseClose'],
  drain: ['bound socketOnDrain'],
  error: ['socketOnError'],
  timeout: ['socketOnTimeout'],
  resume: ['onSocketResume'],
  pause: ['onSocketPause'],
};

/** Node's own release of a connection's parser (what its upgrade path calls): stops it reading and pools it. */
const { freeParser } = createRequire(import.meta.url)('_http_common') as {
  freeParser?: (parser: unknown, req: IncomingMessage, socket: Socket) => void;
};

/** Own methods the HTTP server sets on the socket (unconsume-on-listen wrappers, setEncoding refused). */
const OVERRIDES = ['on', 'addListener', 'prependListener', 'setEncoding'] as const;

export interface TakenSocket {
  socket: Socket;
  /** Whether the response uses chunked transfer coding: every write must then be framed as a chunk. */
  chunked: boolean;
}

function serverListeners(socket: Socket) {
  const found: [string, (...args: unknown[]) => void][] = [];
  for (const [event, names] of Object.entries(SERVER_LISTENERS)) {
    for (const fn of socket.listeners(event) as ((...args: unknown[]) => void)[]) {
      if (names.includes(fn.name)) found.push([event, fn]);
    }
  }
  return found;
}

const EXPECTED = Object.values(SERVER_LISTENERS).reduce((n, l) => n + l.length, 0);

/**
 * Detaches a started response's socket from the HTTP server. Returns null (and changes
 * nothing) when the connection is not in the state this expects: the head not written
 * or not yet handed to the socket, another response queued behind it, or a Node whose
 * server puts other listeners on the socket. The caller then keeps writing through the
 * response: the stream works as before, it only costs more.
 */
export function takeStreamSocket(req: IncomingMessage, res: ServerResponse): TakenSocket | null {
  const socket = res.socket;
  const parser = (socket as { parser?: unknown } | null)?.parser;
  const r = res as ServerResponse & { _httpMessage?: unknown; outputData?: unknown[]; chunkedEncoding?: boolean };
  if (!freeParser || !(socket instanceof Socket) || !parser || req.socket !== socket || !res.headersSent) return null;
  if ((socket as { _httpMessage?: unknown })._httpMessage !== res || (r.outputData?.length ?? 0) > 0) return null;
  const listeners = serverListeners(socket);
  if (listeners.length !== EXPECTED) return null;

  for (const [event, fn] of listeners) socket.removeListener(event, fn);
  // Assigned, not deleted: a deleted property turns the socket into a hash table (~2 KB).
  const own = socket as unknown as Record<string, unknown>;
  const proto = Socket.prototype as unknown as Record<string, unknown>;
  for (const key of OVERRIDES) if (Object.hasOwn(socket, key)) own[key] = proto[key];
  // The parser reads the socket natively; given back, it stops and returns to Node's pool.
  freeParser(parser, req, socket);
  res.detachSocket(socket);
  socket.setTimeout(0);
  // Nothing else arrives on a stream's connection; reading goes on only so that the
  // client's end (FIN or reset) is seen at once and closes the stream.
  socket.on('error', ignore);
  socket.on('end', destroyOnEnd);
  socket.resume();
  return { socket, chunked: r.chunkedEncoding === true };
}

// Shared by every stream: no closure per connection.
function ignore() {}
function destroyOnEnd(this: Socket) {
  this.destroy();
}
