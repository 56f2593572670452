import { audienceFor } from '../access/audience.ts';
import { INCIDENT_EVENT_TYPES, type StoredEvent } from '../../domain/events.ts';
import type { Incident, IncidentStatus } from '../../domain/records.ts';
import type { EventsRepository } from '../../store/repositories/events-repository.ts';
import type { Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import type { RecordsService } from './records-service.ts';
import { type AffectedServiceRef, type EventAnnotator, readsOwnServices } from '../impact/record-annotations.ts';

// What a stream reads from storage: the snapshot it starts with, and the events a
// resuming client missed.

export interface StreamQuery {
  vendors?: string[];
  status?: IncidentStatus;
  limit: number;
  offset: number;
}

export interface Snapshot {
  /** The log's newest sequence when the snapshot was taken: live events after it follow. */
  seq: number;
  at: Date;
  items: Incident[];
  total: number;
}

const REPLAY_PAGE = 500;

export function streamService(d: { events: EventsRepository; records: RecordsService; clock: Clock; annotate?: EventAnnotator }) {
  return {
    /**
     * The organisation whose affected services a stream carries: a signed-in member's own
     * (docs/stream.md "Affected services"); null for anonymous readers and public boards.
     */
    servicesOf(viewer: Viewer): string | null {
      return d.annotate && readsOwnServices(viewer) ? viewer.orgId : null;
    },

    /** Affected services of the organisation per incident event (by sequence); null when none are carried. */
    async affected(orgId: string | null, events: readonly StoredEvent[]): Promise<Map<number, AffectedServiceRef[]> | null> {
      return orgId && d.annotate ? d.annotate(orgId, events) : null;
    },

    /**
     * Whether every event after `lastId` is still in the log. False when the log no
     * longer reaches back that far (pruned after EVENT_RETENTION_DAYS), or when the
     * id is not one of this log's (beyond its newest event).
     */
    async canResume(lastId: number): Promise<boolean> {
      const [oldest, latest] = await Promise.all([d.events.oldestSeq(), d.events.latestSeq()]);
      if (lastId > latest) return false;
      return lastId >= (oldest ?? latest + 1) - 1;
    },

    /** The missed incident events after `lastId`, oldest first, a page at a time (vendor filter in SQL, status here). */
    async *replay(lastId: number, q: Pick<StreamQuery, 'vendors' | 'status'>, viewer: Viewer): AsyncGenerator<{ events: StoredEvent[]; through: number }> {
      // An empty filter follows no vendor (a board whose vendors are all private), not every vendor.
      if (q.vendors && !q.vendors.length) return;
      let from = lastId;
      for (;;) {
        const page = await d.events.after(from, REPLAY_PAGE, { audience: audienceFor(viewer), vendors: q.vendors, types: [...INCIDENT_EVENT_TYPES] });
        if (!page.length) return;
        const through = page[page.length - 1]!.seq;
        yield { events: q.status ? page.filter((e) => (e.payload as Incident).status === q.status) : page, through };
        if (page.length < REPLAY_PAGE) return;
        from = through;
      }
    },

    /** The incidents a new stream starts with, as `/incidents` would list them for this viewer. */
    async snapshot(q: StreamQuery, viewer: Viewer): Promise<Snapshot> {
      // The sequence is read first: whatever commits meanwhile is both in the
      // snapshot and announced live, never in neither.
      const seq = await d.events.latestSeq();
      if (q.vendors && !q.vendors.length) return { seq, at: d.clock.now(), items: [], total: 0 };
      const r = await d.records.incidents({ vendors: q.vendors, status: q.status, limit: q.limit, offset: q.offset }, viewer);
      return { seq, at: d.clock.now(), items: r.items, total: r.total };
    },
  };
}
