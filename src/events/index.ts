// What the stream adapter offers the HTTP routes that serve streams: the SSE frames and
// one client's connection (docs/stream.md). Other folders import these from here only.
export { eventFrame, OPENING, snapshotFrame, SSE_HEADERS } from './sse.ts';
export { StreamConnection } from './stream-connection.ts';
