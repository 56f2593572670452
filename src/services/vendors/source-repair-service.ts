import type { Clock } from '../../domain/clock.ts';
import { customPageSources, type PageDetection, type PageDetector } from '../../domain/custom-sources.ts';
import { DomainError } from '../../domain/errors.ts';
import {
  IN_FORCE,
  isStatusSource,
  judgeFinding,
  RECHECK_AFTER_MS,
  REPAIR_AFTER_FAILURES,
  type RepairOutcome,
  type RepairSource,
  type SourceRepair,
  VENDORS_PER_SCAN,
  vendorNeedsRepair,
} from '../../domain/source-repair.ts';
import type { SourceType } from '../../domain/records.ts';
import type { SourceRepairsRepository } from '../../store/repositories/source-repairs-repository.ts';

// Self-healing of catalog sources (docs/catalog.md "Self-healing"): a scan finds vendors
// whose status sources all keep failing, probes each one's status page at the documented
// endpoints (the detection of user-added pages), and records what it found. A platform move
// that keeps the page's name on its own host is put in force at once and logged; anything
// else waits for an operator (`npm run cli -- catalog repair --accept|--reject VENDOR`).

export interface RepairScan {
  /** Vendors whose page was probed in this scan. */
  checked: number;
  applied: number;
  proposed: number;
  /** Broken vendors left for a later scan (the per-scan bound, or probed within the recheck period). */
  deferred: number;
}

export interface SourceRepairDeps {
  repairs: SourceRepairsRepository;
  detectPage: PageDetector;
  clock: Clock;
  /** Where automatic repairs are reported (the operator's log). */
  onApplied?: (r: SourceRepair) => void;
}

const sameSources = (a: readonly RepairSource[], b: readonly RepairSource[]) =>
  a.length === b.length && a.every((s) => b.some((t) => t.type === s.type && t.url === s.url));

async function detect(detectPage: PageDetector, pageUrl: string): Promise<PageDetection> {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return { found: false, tried: [{ url: pageUrl, result: 'not a URL' }] };
  }
  return detectPage(url);
}

export function sourceRepairService(d: SourceRepairDeps) {
  const at = () => d.clock.now().toISOString();

  async function probe(v: { vendor: string; name: string; statusPageUrl: string }, from: RepairSource[], previous: SourceRepair | null): Promise<SourceRepair> {
    const detection = await detect(d.detectPage, v.statusPageUrl);
    const to = detection.found ? customPageSources(detection.type, detection.url) : [];
    const platform: SourceType | null = detection.found ? detection.type : null;
    const pageName = detection.found ? (detection.pageName ?? null) : null;
    let { outcome, reason } = judgeFinding(v, from, { to, platform, pageName });
    // An operator's "no" to these very sources stands until the page serves something else.
    if (previous?.outcome === 'rejected' && to.length && sameSources(previous.to, to)) {
      outcome = 'rejected';
      reason = previous.reason;
    }
    const repair: SourceRepair = {
      vendor: v.vendor,
      from,
      to,
      platform,
      pageName,
      outcome,
      reason,
      tried: detection.tried,
      checkedAt: at(),
      decidedAt: outcome === 'rejected' ? previous!.decidedAt : null,
      decidedBy: outcome === 'rejected' ? previous!.decidedBy : null,
    };
    if (outcome === 'applied') {
      if (await d.repairs.swapSources(v.vendor, from, to)) {
        repair.decidedAt = repair.checkedAt;
        repair.decidedBy = 'automatic';
        d.onApplied?.(repair);
      } else {
        repair.outcome = 'proposed';
        repair.reason = "the vendor's sources changed while its page was probed; scan again";
      }
    }
    return repair;
  }

  return {
    /** One scan: at most VENDORS_PER_SCAN broken vendors, each probed at most once per RECHECK_AFTER_MS. */
    async scan(o: { vendor?: string } = {}): Promise<RepairScan> {
      const now = d.clock.now();
      const broken = (await d.repairs.failingVendors(REPAIR_AFTER_FAILURES)).filter(
        (v) => (!o.vendor || v.vendor === o.vendor) && vendorNeedsRepair(v.sources, now),
      );
      const result: RepairScan = { checked: 0, applied: 0, proposed: 0, deferred: 0 };
      for (const v of broken) {
        const previous = await d.repairs.get(v.vendor);
        if (result.checked >= VENDORS_PER_SCAN || (previous && now.getTime() - Date.parse(previous.checkedAt) < RECHECK_AFTER_MS)) {
          result.deferred++;
          continue;
        }
        const from = v.sources.filter((s) => isStatusSource(s.type)).map((s) => ({ type: s.type as SourceType, url: s.url }));
        const repair = await probe(v, from, previous);
        await d.repairs.save(repair);
        result.checked++;
        if (repair.outcome === 'applied') result.applied++;
        if (repair.outcome === 'proposed') result.proposed++;
      }
      return result;
    },

    list(outcome?: RepairOutcome): Promise<SourceRepair[]> {
      return d.repairs.list(outcome);
    },

    /** Repairs whose sources replace the catalog's at start-up. */
    async inForce(): Promise<SourceRepair[]> {
      return (await d.repairs.list()).filter((r) => IN_FORCE.includes(r.outcome));
    },

    /** An operator puts a proposed (or earlier rejected) repair in force. */
    async accept(vendor: string, by: string): Promise<SourceRepair> {
      const r = await d.repairs.get(vendor);
      if (!r) throw new DomainError('not_found', `No repair was found for '${vendor}'.`);
      if (r.outcome !== 'proposed' && r.outcome !== 'rejected')
        throw new DomainError('conflict', `The repair of '${vendor}' is ${r.outcome}; only a proposed or rejected one can be accepted.`);
      if (!(await d.repairs.swapSources(vendor, r.from, r.to))) {
        throw new DomainError(
          'conflict',
          `The sources of '${vendor}' changed since its page was probed; scan again (catalog repair --scan --vendor ${vendor}).`,
        );
      }
      await d.repairs.decide(vendor, 'accepted', at(), by);
      return { ...r, outcome: 'accepted', decidedAt: at(), decidedBy: by };
    },

    /** An operator refuses a proposal, or takes back a repair in force (its old sources return). */
    async reject(vendor: string, by: string): Promise<SourceRepair> {
      const r = await d.repairs.get(vendor);
      if (!r) throw new DomainError('not_found', `No repair was found for '${vendor}'.`);
      if (r.outcome !== 'proposed' && !IN_FORCE.includes(r.outcome))
        throw new DomainError('conflict', `The repair of '${vendor}' is ${r.outcome}; there is nothing to reject.`);
      if (IN_FORCE.includes(r.outcome) && !(await d.repairs.swapSources(vendor, r.to, r.from))) {
        throw new DomainError('conflict', `The sources of '${vendor}' changed since the repair; nothing was taken back.`);
      }
      await d.repairs.decide(vendor, 'rejected', at(), by);
      return { ...r, outcome: 'rejected', decidedAt: at(), decidedBy: by };
    },
  };
}

export type SourceRepairService = ReturnType<typeof sourceRepairService>;
