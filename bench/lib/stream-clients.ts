import http from 'node:http';

// One process of stream clients for bench/stream.bench.ts: opens N raw SSE
// connections (no EventSource machinery: 1,000 per process must stay cheap),
// reports when every one has its snapshot, then reports, per client, when the
// first incident.created arrived and the occurredAt it carried. All connections of
// the process leave from `localAddress` (its own loopback address: ephemeral ports
// are counted per source address).

const [url, countArg, localAddress] = process.argv.slice(2);
const count = Number(countArg);
const send = (m: unknown) => process.send!(m);

let ready = 0;
let failed = 0;
const latencies: number[] = [];
const sockets: http.ClientRequest[] = [];

function open(i: number) {
  return new Promise<void>((resolve) => {
    const req = http.get(url!, { agent: false, localAddress }, (res) => {
      if (res.statusCode !== 200) {
        failed++;
        res.resume();
        return resolve();
      }
      res.setEncoding('utf8');
      let buf = '';
      let gotSnapshot = false;
      let gotEvent = false;
      res.on('data', (chunk: string) => {
        buf += chunk;
        if (!gotSnapshot && buf.includes('event: snapshot')) {
          gotSnapshot = true;
          ready++;
          buf = buf.slice(buf.lastIndexOf('\n\n') + 2);
          resolve();
        }
        if (gotSnapshot && !gotEvent) {
          const at = buf.indexOf('event: incident.created\ndata: ');
          if (at >= 0) {
            const end = buf.indexOf('\n', at + 31);
            if (end < 0) return;
            const now = Date.now();
            gotEvent = true;
            const data = JSON.parse(buf.slice(at + 30, end)) as { occurredAt: string };
            latencies.push(now - Date.parse(data.occurredAt));
            buf = '';
            if (latencies.length + failed === count) send({ kind: 'received', latencies, at: now });
          }
        }
        if (buf.length > 1_000_000) buf = buf.slice(-100_000);
      });
    });
    req.on('error', () => {
      failed++;
      resolve();
    });
    sockets[i] = req;
  });
}

for (let i = 0; i < count; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => open(i + j)));
}
send({ kind: 'ready', ready, failed });
process.on('message', (m: { kind: string }) => {
  if (m.kind === 'close') {
    for (const s of sockets) s?.destroy();
    process.exit(0);
  }
});
