import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { MemoryStreamSlots } from '../../src/infra/stream-slots.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { commitEvents, openStream } from '../helpers/stream.ts';
import { waitFor } from '../helpers/wait.ts';

// An open stream keeps its socket and nothing of Node's or Fastify's request
// machinery (docs/stream.md, "What a stream costs"): the request and the response are
// collected while the stream goes on; the body is still valid chunked HTTP; a client's
// end closes the stream at once; the stream is counted in the request metrics when it closes.

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const route = '/api/v1/infrastructure/incidents/stream';

async function streamRequests(t: TestApp): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('vis_http_requests_total{') && l.includes(`route="${route}"`) && l.includes('status="200"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('stream socket', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 100000, perDay: 1000000, concurrentStreams: 50 } }) } });
  });
  after(async () => t.close());

  test("the request and the response are collected while the stream goes on as chunked HTTP; the client's end closes it", async () => {
    const held: { req: WeakRef<IncomingMessage>; res: WeakRef<ServerResponse> }[] = [];
    const track = (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith(route)) held.push({ req: new WeakRef(req), res: new WeakRef(res) });
    };
    t.app.server.on('request', track);
    const { port, hostname } = new URL(t.url);
    const socket = net.connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
    });
    socket.write(`GET ${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    await waitFor(() => text.includes('event: snapshot'), { message: () => `the snapshot arrives; got ${JSON.stringify(text)}`, timeoutMs: 20_000 });
    t.app.server.off('request', track);
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(text, /\r\ntransfer-encoding: chunked\r\n/i);
    // The body as chunks, each framed with its size: the opening `retry:`, then the snapshot.
    const body = () => text.slice(text.indexOf('\r\n\r\n') + 4);
    assert.match(body(), /^d\r\nretry: 5000\n\n\r\n[0-9a-f]+\r\nid: \d+\nevent: snapshot\n/);

    assert.equal(held.length, 1);
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(held[0]!.req.deref(), undefined, 'the IncomingMessage is not kept for the stream');
    assert.equal(held[0]!.res.deref(), undefined, "the ServerResponse (and so Fastify's reply) is not kept for the stream");
    assert.equal(t.app.streams.hub.size, 1);

    const [stored] = await commitEvents(t, [{ vendor: 'github', id: 'sock-1', type: 'incident.created' }]);
    await waitFor(() => text.includes('event: incident.created'), { message: 'the live event arrives', timeoutMs: 20_000 });
    const chunk = /\r\n([0-9a-f]+)\r\n(id: (\d+)\nevent: incident\.created\n[^\r]*)\r\n$/.exec(body());
    assert.ok(chunk, `a whole chunk: ${JSON.stringify(body().slice(-200))}`);
    assert.equal(Number.parseInt(chunk[1]!, 16), Buffer.byteLength(chunk[2]!, 'latin1'), 'the size line is the size of the frame');
    assert.equal(chunk[3], String(stored!.seq));

    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.end();
    await waitFor(() => t.app.streams.hub.size === 0, { message: 'the half-closed stream leaves the hub', timeoutMs: 20_000 });
    await closed;
    const anonymous = t.app.streams.anonymous;
    assert.ok(anonymous instanceof MemoryStreamSlots);
    assert.equal(anonymous.open('anonymous'), 0, 'the slot is back');
  });

  test('a stream is counted in the request metrics when it closes', async () => {
    const was = await streamRequests(t);
    const client = openStream(`${t.api}/incidents/stream`);
    await client.waitFor(1, 20_000);
    client.close();
    await waitFor(async () => (await streamRequests(t)) === was + 1, { message: 'the closed stream is counted once', timeoutMs: 20_000 });
  });
});
