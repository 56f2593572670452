import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { NewEvent, StoredEvent } from '../../src/domain/events.ts';
import type { Database } from '../../src/store/schema.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { incidentEvent } from '../helpers/records.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { createUser, send } from '../helpers/users.ts';

// A transaction that appends events and stays open for 30 s beside fast ones that
// append and commit meanwhile (docs/reliability.md, event order). Every event must
// get exactly one delivery row, and the stream must send each one once, in order,
// with an `id:` a resuming client can use without missing the slow transaction's
// events. Only PostgreSQL lets transactions overlap like this.

const HOLD_MS = 31_000;
const SLOW = 40;
const FAST_TXNS = 8;
const FAST_EACH = 3;
const TOTAL = SLOW + FAST_TXNS * FAST_EACH;

const event = (id: string) => incidentEvent('github', id);

interface Frame {
  id: string | null;
  event: string;
  data: any;
}

/** A raw SSE reader: unlike a browser client it shows which frames carry no `id:`. */
function rawStream(url: string, lastEventId?: string) {
  const frames: Frame[] = [];
  const ctl = new AbortController();
  const done = (async () => {
    const res = await fetch(url, { signal: ctl.signal, headers: lastEventId ? { 'last-event-id': lastEventId } : {} });
    assert.equal(res.status, 200);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, cut);
        text = text.slice(cut + 2);
        const f: Frame = { id: null, event: 'message', data: null };
        let data: string | null = null;
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) f.id = line.slice(4);
          else if (line.startsWith('event: ')) f.event = line.slice(7);
          else if (line.startsWith('data: ')) data = line.slice(6);
        }
        if (data === null) continue;
        f.data = JSON.parse(data);
        frames.push(f);
      }
    }
  })().catch((err) => {
    if ((err as Error).name !== 'AbortError') throw err;
  });
  return {
    frames,
    incidents: () => frames.filter((f) => f.event.startsWith('incident.')),
    close: async () => {
      ctl.abort();
      await done;
    },
  };
}

describe('events of a transaction held open 30 s', {
  skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL (PostgreSQL): transactions only overlap there',
}, () => {
  let t: TestApp;
  let userId: string;

  before(async () => {
    // Appenders wait for the slow transaction's lock on the event head (docs/reliability.md,
    // event order), longer than the default statement deadline.
    t = await startApp({
      env: { DATABASE_QUERY_TIMEOUT_MS: '120000', RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 100000, perDay: 1000000, concurrentStreams: 10 } }) },
    });
    const user = await createUser(t, 'pro');
    userId = user.id;
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', user.headers, { vendors: ['github'] })).status, 200);
    assert.equal((await send(`${t.api}/notification-preferences`, 'PUT', user.headers, { in_app: { enabled: true } })).status, 200);
  });
  after(async () => {
    await t?.close();
  });

  test('are delivered exactly once and replayed on resume, in order, beside faster transactions', { timeout: 180_000 }, async () => {
    const repos = t.repos;
    const bus = t.app.bus;
    const streamUrl = `${t.api}/incidents/stream`;
    const start = await repos.events.latestSeq();
    // One append per event, as ingestion once did: the slow transaction holds its numbers from its first event.
    const appendEach = async (trx: Kysely<Database>, list: NewEvent[]) => {
      const out: StoredEvent[] = [];
      for (const e of list) out.push(await repos.events.append(trx, e));
      return out;
    };

    // One client stays connected throughout; another leaves during the hold and resumes.
    const live = rawStream(streamUrl);
    const leaving = rawStream(streamUrl);
    await waitFor(() => (live.frames.length && leaving.frames.length ? true : undefined), { message: 'the snapshots', timeoutMs: 60_000, intervalMs: 100 });

    let appended!: () => void;
    const slowAppended = new Promise<void>((r) => (appended = r));
    const began = Date.now();
    const slow = t.store.db
      .transaction()
      .execute(async (trx) => {
        const out = await appendEach(
          trx,
          Array.from({ length: SLOW }, (_, i) => event(`slow${i}`)),
        );
        appended();
        await sleep(HOLD_MS);
        return out;
      })
      .then((events) => {
        bus.publish(events);
        return events;
      });
    await slowAppended;

    // Fast transactions, one a second: each appends and commits (as soon as it may) and is announced.
    const fast: Promise<StoredEvent[]>[] = [];
    for (let n = 0; n < FAST_TXNS; n++) {
      fast.push(
        t.store.db
          .transaction()
          .execute((trx) =>
            appendEach(
              trx,
              Array.from({ length: FAST_EACH }, (_, i) => event(`fast${n}_${i}`)),
            ),
          )
          .then((events) => {
            bus.publish(events);
            return events;
          }),
      );
      await sleep(1_000);
    }
    // Well into the hold (and past any grace period), the leaving client notes its resume point.
    await sleep(Math.max(0, HOLD_MS - 6_000 - (Date.now() - began)));
    const seenBeforeLeaving = leaving.incidents();
    const resumeFrom = seenBeforeLeaving.filter((f) => f.id !== null).at(-1)?.id ?? String(start);
    await leaving.close();

    const slowEvents = await slow;
    const fastEvents = (await Promise.all(fast)).flat();
    const heldMs = Date.now() - began;
    assert.ok(heldMs >= 30_000, `the slow transaction was open ${heldMs} ms`);
    const all = [...slowEvents, ...fastEvents].map((e) => e.seq).sort((a, b) => a - b);
    assert.equal(new Set(all).size, TOTAL, 'every event has its own number');

    // Every check runs (and reports) even when an earlier one fails, so a failure shows the whole damage.
    const problems: string[] = [];
    const numbers = (frames: Frame[]) => frames.map((f) => (f.id === null ? null : Number(f.id)));

    // Live: every event once, each with its id, in order.
    await waitFor(() => (live.incidents().length >= TOTAL ? true : undefined), { message: `${TOTAL} live events`, timeoutMs: 60_000, intervalMs: 100 }).catch(
      (err) => problems.push((err as Error).message),
    );
    await sleep(500);
    const liveFrames = live.incidents();
    const withoutId = liveFrames.filter((f) => f.id === null).length;
    if (withoutId) problems.push(`${withoutId} of ${liveFrames.length} live events were sent without an id`);
    if (JSON.stringify(numbers(liveFrames)) !== JSON.stringify(all)) problems.push('live events are not every event once in order');

    // Resume: what the leaving client saw plus what the resumed stream replays is every event once, in order.
    const resumed = rawStream(streamUrl, resumeFrom);
    const expectAfter = all.filter((s) => s > Number(resumeFrom));
    await waitFor(() => (resumed.incidents().length >= expectAfter.length ? true : undefined), {
      message: 'the replay',
      timeoutMs: 10_000,
      intervalMs: 100,
    }).catch(() => {});
    await sleep(500);
    await resumed.close();
    await live.close();
    const replayed = resumed.incidents();
    const union = [...numbers(seenBeforeLeaving), ...numbers(replayed)];
    const missedSlow = slowEvents.filter((e) => !union.includes(e.seq)).length;
    if (missedSlow) problems.push(`resuming from ${resumeFrom}: ${missedSlow} of ${SLOW} events of the slow transaction never reached the client`);
    if (JSON.stringify(union) !== JSON.stringify(all)) problems.push('seen before leaving + replayed is not every event once in order');

    // Alerts: one in-app delivery row per event for the watching user.
    const deliveredSeqs = async () =>
      (await t.store.db.selectFrom('deliveries').select('event_seq').where('org_id', '=', userId).where('channel', '=', 'in_app').execute())
        .map((r) => Number(r.event_seq))
        .sort((a, b) => a - b);
    await waitFor(async () => ((await deliveredSeqs()).length >= TOTAL ? true : undefined), {
      message: `${TOTAL} delivery rows`,
      timeoutMs: 20_000,
      intervalMs: 100,
    }).catch(() => {});
    const delivered = await deliveredSeqs();
    const undelivered = all.filter((s) => !delivered.includes(s)).length;
    if (undelivered) problems.push(`${undelivered} of ${TOTAL} events have no delivery row`);
    if (JSON.stringify(delivered) !== JSON.stringify(all)) problems.push('delivery rows are not exactly one per event');

    assert.deepEqual(problems, []);
    console.log(`# ${TOTAL} events (${SLOW} from a transaction open ${heldMs} ms): ${delivered.length} delivery rows, ${replayed.length} replayed on resume`);
  });
});
