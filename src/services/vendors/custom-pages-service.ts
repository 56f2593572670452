import type { AuditService } from '../orgs/audit-service.ts';
// Status pages a user adds by URL (docs/per-user.md "Custom status pages"): checked
// against the outbound rules, detected by probing the documented endpoints of each
// platform, stored as a private vendor that the poller then treats like a catalog one.
import {
  accountNamespace,
  CUSTOM_CATEGORY,
  CUSTOM_SOURCE_CAPS,
  customPageDataTypes,
  customPageSources,
  customSourceCap,
  DETECTABLE_PLATFORMS,
  DETECTIONS_PER_HOUR,
  nameFromUrl,
  privateSlug,
  type PageDetector,
  type ProbeAttempt,
} from '../../domain/custom-sources.ts';
import type { SourceSnapshot } from '../../domain/records.ts';
import { DomainError, invalidParameter, notFound } from '../../domain/errors.ts';
import { webhookUrlProblem } from '../../domain/outbound-url.ts';
import type { Plan } from '../../domain/plans.ts';
import type { SlidingLimitsRepository } from '../../store/repositories/sliding-limits-repository.ts';
import type { CustomPage, CustomPagesRepository } from '../../store/repositories/custom-pages-repository.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';

export interface CustomPagesView {
  pages: CustomPage[];
  count: number;
  /** The plan's cap (0: the plan may not add pages). */
  limit: number;
  remaining: number;
}

export interface AddPageInput {
  url: string;
  name?: string;
}

const MAX_NAME = 100;

export function customPagesService(d: {
  customPages: CustomPagesRepository;
  clock: Clock;
  minPlan: Plan;
  /** OUTBOUND_ALLOW_PRIVATE. */
  allowPrivate: readonly string[];
  detect: PageDetector;
  slidingLimits: SlidingLimitsRepository;
  /** Stores what detection read as the first poll of the detected source (ingest use case). */
  applyRead?: (vendor: string, url: string, read: (vendor: string) => SourceSnapshot) => Promise<boolean>;
  /** The account's private pages changed (services/access/private-readers.ts: its cached answers become its own). */
  onChange?: (orgId: string) => void;
  audit: Pick<AuditService, 'record'>;
}) {
  const capOf = (plan: Plan) => customSourceCap(plan, d.minPlan);

  async function view(orgId: string, plan: Plan): Promise<CustomPagesView> {
    const pages = await d.customPages.list(orgId);
    const limit = capOf(plan);
    return { pages, count: pages.length, limit, remaining: Math.max(0, limit - pages.length) };
  }

  function planGate(plan: Plan) {
    if (capOf(plan) > 0) return;
    throw new DomainError('plan_required', `Adding status pages requires the ${d.minPlan} plan or higher`, {
      currentPlan: plan,
      requiredPlan: d.minPlan,
      hint: 'Upgrade the account, then add the page again.',
    });
  }

  function limitError(plan: Plan, count: number): DomainError {
    const limit = capOf(plan);
    return new DomainError('limit_exceeded', `Your plan allows ${limit} custom status pages; remove one first`, {
      currentPlan: plan,
      limit,
      count,
      hint: `Plans allow ${Object.entries(CUSTOM_SOURCE_CAPS)
        .filter(([p]) => capOf(p as Plan) > 0)
        .map(([p, n]) => `${p} ${n}`)
        .join(', ')}.`,
    });
  }

  return {
    async list(viewer: Viewer): Promise<CustomPagesView> {
      return view(ownerOrg(viewer), viewer.plan);
    },

    /** Detects and adds a page; answers the page and the account's list. */
    async add(viewer: Viewer, input: AddPageInput): Promise<CustomPagesView & { page: CustomPage }> {
      const orgId = ownerOrg(viewer, 'editor');
      planGate(viewer.plan);
      const raw = input.url.trim();
      const problem = webhookUrlProblem(raw, d.allowPrivate);
      if (problem) throw invalidParameter('url', problem);
      const url = new URL(raw);
      const name = (input.name?.trim() || nameFromUrl(url)).slice(0, MAX_NAME);
      if (!name) throw invalidParameter('name', 'must not be empty');
      // Cheap refusals before any request leaves: at the cap, or already added.
      const before = await view(orgId, viewer.plan);
      const pageUrl = url.toString();
      const existing = before.pages.find((p) => p.pageUrl === pageUrl);
      if (existing) throw new DomainError('conflict', `This page is already in your list as '${existing.slug}'`, { vendor: existing.slug });
      if (before.count >= before.limit) throw limitError(viewer.plan, before.count);

      // Every detection sends requests out on the account's behalf: a few in any hour
      // (a sliding window in the store; a clock-hour window let twice as many through around the hour).
      const gate = await d.slidingLimits.take([{ subject: `pages:${orgId}`, limit: DETECTIONS_PER_HOUR }], 3_600_000, d.clock.now());
      if (!gate.allowed) {
        throw new DomainError('rate_limit_exceeded', `At most ${DETECTIONS_PER_HOUR} status pages can be detected per hour; try again later`, {
          retryAfter: gate.retryAfterSeconds,
        });
      }
      const found = await d.detect(url);
      if (!found.found) throw undetected(found.tried);
      const sources = customPageSources(found.type, found.url);
      const outcome = await d.customPages.add(
        {
          orgId,
          name,
          website: url.origin,
          pageUrl,
          description: `Status page added by URL (${found.type})`,
          category: CUSTOM_CATEGORY,
          dataTypes: customPageDataTypes(found.type),
          sources,
          now: d.clock.now(),
        },
        before.limit,
        accountNamespace(orgId),
        (taken) => privateSlug(orgId, name, taken),
      );
      switch (outcome.status) {
        case 'full':
          throw limitError(viewer.plan, outcome.count);
        case 'duplicate':
          throw new DomainError('conflict', `This page is already in your list as '${outcome.slug}'`, { vendor: outcome.slug });
        case 'namespace_taken':
          throw new DomainError('conflict', 'Pages cannot be added to this account; contact the operator', {});
        case 'added': {
          // What detection just read is shown at once, not after the next polling round (which
          // an API-only instance, INGEST=off, never runs). Best effort: the poller reads it anyway.
          if (found.read && d.applyRead) await d.applyRead(outcome.slug, found.url, found.read).catch(() => false);
          d.onChange?.(orgId);
          await d.audit.record(orgId, viewer, 'status_page.added', `vendor:${outcome.slug}`, { after: { url: found.url, type: found.type } });
          const after = await view(orgId, viewer.plan);
          return { ...after, page: after.pages.find((p) => p.slug === outcome.slug)! };
        }
      }
    },

    /** Removes a page with its history; 404 for a slug that is not one of the account's pages. */
    async remove(viewer: Viewer, slug: string): Promise<CustomPagesView> {
      const orgId = ownerOrg(viewer, 'editor');
      if (!(await d.customPages.remove(orgId, slug))) throw notFound(`No custom status page '${slug}' in your account`);
      d.onChange?.(orgId);
      await d.audit.record(orgId, viewer, 'status_page.removed', `vendor:${slug}`);
      return view(orgId, viewer.plan);
    },
  };
}

/** The 422 answer: what was tried and what each endpoint gave. */
function undetected(tried: ProbeAttempt[]): DomainError {
  return new DomainError('unprocessable', `No supported status platform was detected at this address (tried ${DETECTABLE_PLATFORMS.join(', ')})`, {
    platforms: [...DETECTABLE_PLATFORMS],
    tried,
  });
}

export type CustomPagesService = ReturnType<typeof customPagesService>;
