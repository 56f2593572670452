import { PUBLIC_AUDIENCE } from '../../domain/audience.ts';
import { randomUUID } from 'node:crypto';
import { DEFAULT_BOARD_TITLE, MAX_BOARDS_PER_USER, normaliseFrameAncestors } from '../../domain/boards.ts';
import { DomainError } from '../../domain/errors.ts';
import type { BoardRecord, BoardsRepository } from '../../store/repositories/boards-repository.ts';
import type { WatchlistRepository } from '../../store/repositories/watchlist-repository.ts';
import { generateSessionToken, sha256hex } from '../access/secrets.ts';
import { anonymousViewer, ownerOrg, type Viewer } from '../context.ts';
import type { AffectedServiceRef, RecordAnnotator } from '../impact/record-annotations.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { Clock } from '../../domain/clock.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import type { Overview, OverviewService, VendorOverview } from '../records/overview-service.ts';

// Public status boards (docs/boards.md): a user publishes their watchlist as a
// read-only page at /b/{token}. The board keeps the vendors the watchlist held when
// it was made (a later watchlist change publishes nothing by itself). The token is
// 256 random bits, stored only as its SHA-256 hash; revoking deletes the board.

/** The owner's view of a board (never the token, which only the create answer carries). */
export type BoardView = Omit<BoardRecord, 'orgId'>;

/** What the public page may show: the board's own fields and its vendors' status; nothing of the account. */
export interface PublicBoard {
  title: string;
  vendors: VendorOverview[];
  frameAncestors: string[];
  /** The board's vendors, for the stream filter. */
  slugs: string[];
  generatedAt: string;
  /**
   * For a member of the organisation that owns the board only: its services each active
   * incident may hit, by incident id (docs/boards.md "Affected services"). Absent for anyone else.
   */
  affected?: Map<string, AffectedServiceRef[]>;
}

export const BOARD_PATH = '/b/';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const view = ({ orgId: _owner, ...rest }: BoardRecord): BoardView => rest;

export function boardService(d: {
  boards: BoardsRepository;
  watchlist: WatchlistRepository;
  overview: OverviewService;
  catalog: CatalogService;
  clock: Clock;
  audit: Pick<AuditService, 'record'>;
  annotate?: RecordAnnotator;
}) {
  return {
    async create(
      viewer: Viewer,
      input: { title?: string; frameAncestors?: string[] },
    ): Promise<{ board: BoardView; token: string; path: string; warnings: string[] }> {
      const orgId = ownerOrg(viewer, 'editor');
      const frameAncestors = normaliseFrameAncestors(input.frameAncestors);
      const vendors = await d.watchlist.list(orgId);
      if (!vendors.length) {
        throw new DomainError('invalid_parameter', 'Your watchlist is empty: add vendors to it before publishing a board', { parameter: 'watchlist' });
      }
      if ((await d.boards.countByOrg(orgId)) >= MAX_BOARDS_PER_USER) {
        throw new DomainError('limit_exceeded', `At most ${MAX_BOARDS_PER_USER} boards per account: revoke one first`, { limit: MAX_BOARDS_PER_USER });
      }
      const token = generateSessionToken();
      const board = await d.boards.create({
        id: randomUUID(),
        orgId,
        tokenHash: sha256hex(token),
        title: input.title?.trim() || DEFAULT_BOARD_TITLE,
        vendors,
        frameAncestors,
        createdAt: d.clock.now().toISOString(),
      });
      await d.audit.record(orgId, viewer, 'board.created', `board:${board.id}`, { after: { title: board.title, vendors, frameAncestors } });
      // The board shows the public catalog: a vendor not monitored appears as such, never operational.
      const warnings = await d.catalog.notMonitoredWarnings(vendors, PUBLIC_AUDIENCE);
      return { board: view(board), token, path: `${BOARD_PATH}${token}`, warnings };
    },

    async list(viewer: Viewer): Promise<BoardView[]> {
      return (await d.boards.listByOrg(ownerOrg(viewer))).map(view);
    },

    /** Revokes at once: the next request for the URL finds nothing. Another user's id is not found. */
    async revoke(viewer: Viewer, id: string): Promise<void> {
      const orgId = ownerOrg(viewer, 'editor');
      if (!(await d.boards.delete(orgId, id))) throw new DomainError('not_found', 'No such board');
      await d.audit.record(orgId, viewer, 'board.revoked', `board:${id}`);
    },

    /** The board behind a token, or a not_found (also for malformed tokens: no oracle on the format). */
    async find(token: string): Promise<BoardRecord> {
      const board = TOKEN.test(token) ? await d.boards.findByTokenHash(sha256hex(token)) : null;
      if (!board) throw new DomainError('not_found', 'There is no board at this address, or it was revoked.');
      return board;
    },

    /**
     * The vendors a board's stream follows: those of the board anyone may see. A page
     * its author added (private to the account) is left out, as on the page itself;
     * asking the snapshot for it answered 404 after the stream had started, so the
     * stream died on every connection (docs/boards.md).
     */
    async streamVendors(token: string): Promise<string[]> {
      const board = await this.find(token);
      return d.catalog.visible(board.vendors, PUBLIC_AUDIENCE);
    },

    /**
     * What the page shows. `viewer`: who looks; a member of the owning organisation also
     * gets its affected services, everyone else (anonymous, other organisations) the same
     * public page.
     */
    async publicView(token: string, viewer: Viewer = anonymousViewer): Promise<PublicBoard> {
      const board = await this.find(token);
      // A board is public: it shows the public catalog only, never a page its author added.
      const overview: Overview = await d.overview.overview(PUBLIC_AUDIENCE);
      const bySlug = new Map(overview.vendors.map((v) => [v.vendor, v]));
      const vendors = board.vendors.map((s) => bySlug.get(s)).filter((v): v is VendorOverview => v !== undefined);
      const own = viewer.orgId === board.orgId && d.annotate;
      const affected = own
        ? await d.annotate!(
            viewer,
            vendors.flatMap((v) => v.activeIncidents.map((record) => ({ kind: 'incident' as const, record }))),
          )
        : null;
      return {
        title: board.title,
        vendors,
        frameAncestors: board.frameAncestors,
        slugs: board.vendors.filter((s) => bySlug.has(s)),
        generatedAt: overview.generatedAt,
        ...(affected ? { affected } : {}),
      };
    },
  };
}
