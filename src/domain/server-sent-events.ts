// Server-sent events as text (the WHATWG `text/event-stream` format): a stream of events, each
// a block of `field: value` lines ended by a blank line. A status page that publishes only such a
// stream (Hund, docs/mappings.md "Hund") is read by taking the stream until its first event of a
// given name is complete. Pure: no I/O.

export interface ServerSentEvent {
  event: string;
  data: string;
}

/** The event a Hund page's live stream opens with: the page's state and its issues. */
export const HUND_INIT_EVENT = 'init_event';

/** Most events read from one body; a stream is read only up to its first wanted event. */
const MAX_EVENTS = 1000;

/** The complete events of `text` (a block without its closing blank line is not complete). */
export function parseServerSentEvents(text: string): ServerSentEvent[] {
  const out: ServerSentEvent[] = [];
  const blocks = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n\n');
  // The last piece has no closing blank line: the event is not over yet.
  blocks.pop();
  for (const block of blocks) {
    if (out.length >= MAX_EVENTS) break;
    let event = 'message';
    const data: string[] = [];
    let seen = false;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') {
        event = value;
        seen = true;
      } else if (field === 'data') {
        data.push(value);
        seen = true;
      }
    }
    if (seen) out.push({ event, data: data.join('\n') });
  }
  return out;
}

/** The first complete event named `name`, or null. */
export function firstServerSentEvent(text: string, name: string): ServerSentEvent | null {
  return parseServerSentEvents(text).find((e) => e.event === name) ?? null;
}

/**
 * When a body received so far is enough: a stream that never ends is read until its first
 * complete `name` event. Cheap on chunks that cannot have closed an event.
 */
export const bodyHasEvent =
  (name: string) =>
  (received: Buffer): boolean => {
    const text = received.toString('utf8');
    if (!/\n\r?\n/.test(text)) return false;
    return firstServerSentEvent(text, name) !== null;
  };

/** A Hund stream has been read far enough: its first complete init event (docs/mappings.md "Hund"). */
export const hundStreamComplete = bodyHasEvent(HUND_INIT_EVENT);
