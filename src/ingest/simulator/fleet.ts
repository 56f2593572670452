import type {
  AdvisoryRecord,
  ComponentRecord,
  ComponentStatus,
  Impact,
  IncidentRecord,
  Indicator,
  MaintenanceRecord,
  Severity,
  UpdateRecord,
} from '../../domain/records.ts';
import type { Clock } from '../../domain/clock.ts';
import { between, pick, type Random, seededRandom, shuffle } from './random.ts';
import { COMPONENT_LEVEL } from '../../domain/status-levels.ts';

// The simulated vendor fleet's state: per vendor, components, incidents that open,
// progress and resolve, maintenance windows that are scheduled, start and complete,
// security advisories and release notes. Everything is generated here from a seed
// (no recorded payload is used); the server renders it in the real upstream formats.

export interface FleetVendorSpec {
  slug: string;
  name: string;
  advisories?: boolean;
  updates?: boolean;
}

export interface FleetVendor {
  slug: string;
  name: string;
  components: { id: string; name: string; group: string | null }[];
  /** Newest first. */
  incidents: IncidentRecord[];
  maintenances: MaintenanceRecord[];
  advisories: AdvisoryRecord[];
  updates: UpdateRecord[];
  /** Bumped on every change (the server's cache and ETag key). */
  version: number;
  changedAt: string;
}

export interface FleetRates {
  /** Per vendor and step. */
  newIncident: number;
  /** Per open incident and step: move to the next stage. */
  advanceIncident: number;
  newMaintenance: number;
  advisory: number;
  update: number;
}

const DEFAULT_RATES: FleetRates = {
  newIncident: 0.015,
  advanceIncident: 0.4,
  newMaintenance: 0.006,
  advisory: 0.004,
  update: 0.008,
};

export interface FleetChange {
  vendor: string;
  kind:
    | 'incident.opened'
    | 'incident.progressed'
    | 'incident.resolved'
    | 'maintenance.scheduled'
    | 'maintenance.started'
    | 'maintenance.verifying'
    | 'maintenance.completed'
    | 'advisory.published'
    | 'update.published';
  id: string;
}

const COMPONENTS = [
  'API',
  'Dashboard',
  'Webhooks',
  'Authentication',
  'Notifications',
  'Search',
  'Billing',
  'Storage',
  'Realtime events',
  'Build pipeline',
  'Scheduled jobs',
  'Data export',
];
const REGIONS = ['Europe', 'North America', 'Asia Pacific'];

const TITLES = [
  'Elevated error rates on {c}',
  'Degraded performance of {c}',
  'Delayed processing in {c}',
  'Partial outage affecting {c}',
  'Increased latency for {c}',
  '{c} unavailable for some customers',
];

const STAGES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
const STAGE_TEXT: Record<(typeof STAGES)[number], string> = {
  investigating: 'We are investigating reports of problems with {c}.',
  identified: 'The cause has been identified and a fix is being rolled out.',
  monitoring: 'A fix has been deployed. We are monitoring the results.',
  resolved: 'This incident has been resolved. {c} is operating normally.',
};

const ADVISORY_TOPICS = [
  'Privilege escalation in the {c} service',
  'Information disclosure through {c} logs',
  'Denial of service in {c} request parsing',
  'Session fixation in {c}',
];
const RELEASE_TOPICS = [
  '{c}: new filtering options',
  '{c} is now generally available in more regions',
  'Faster {c} for large accounts',
  '{c}: deprecation of the v1 endpoints',
];

const IMPACTS: Impact[] = ['minor', 'minor', 'minor', 'major', 'major', 'critical', 'none'];
const SEVERITY_OF: Record<Impact, Severity> = { none: 'low', minor: 'medium', major: 'high', critical: 'critical' };
const COMPONENT_OF_IMPACT: Record<Impact, ComponentStatus> = {
  none: 'operational',
  minor: 'degraded_performance',
  major: 'partial_outage',
  critical: 'major_outage',
};
/** Worse is higher: the levels /metrics reports (domain/status-levels.ts). */
const RANK: Record<ComponentStatus, number> = COMPONENT_LEVEL;

const HISTORY = 50;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface FleetOptions {
  vendors: FleetVendorSpec[];
  seed?: number;
  clock: Clock;
  rates?: Partial<FleetRates>;
  /** Prefix of generated ids; defaults to the start time so runs never reuse ids. */
  tag?: string;
  /** Make up some past history per vendor (the demo); tests start empty. */
  history?: boolean;
}

export class Fleet {
  readonly vendors = new Map<string, FleetVendor>();
  private readonly random: Random;
  private readonly clock: Clock;
  private readonly rates: FleetRates;
  private readonly tag: string;
  private counter = 0;
  private readonly specs = new Map<string, FleetVendorSpec>();

  constructor(o: FleetOptions) {
    this.random = seededRandom(o.seed ?? 1);
    this.clock = o.clock;
    this.rates = { ...DEFAULT_RATES, ...o.rates };
    this.tag = o.tag ?? Math.floor(o.clock.now().getTime() / 1000).toString(36);
    const at = o.clock.now().toISOString();
    for (const spec of o.vendors) {
      this.specs.set(spec.slug, spec);
      const names = shuffle(this.random, COMPONENTS).slice(0, between(this.random, 3, 6));
      const components = names.map((name, i) => ({ id: `c${i + 1}`, name, group: null as string | null }));
      if (this.random() < 0.4) {
        for (const [i, region] of REGIONS.entries()) components.push({ id: `r${i + 1}`, name: region, group: 'Regions' });
      }
      this.vendors.set(spec.slug, {
        slug: spec.slug,
        name: spec.name,
        components,
        incidents: [],
        maintenances: [],
        advisories: [],
        updates: [],
        version: 1,
        changedAt: at,
      });
      if (o.history) this.backfill(spec.slug);
    }
  }

  private nextId(prefix: string) {
    this.counter++;
    return `${this.tag}${prefix}${this.counter.toString(36).padStart(3, '0')}`;
  }

  private get now() {
    return this.clock.now();
  }

  private require(slug: string): FleetVendor {
    const v = this.vendors.get(slug);
    if (!v) throw new Error(`simulator has no vendor '${slug}'`);
    return v;
  }

  private touch(v: FleetVendor) {
    v.version++;
    v.changedAt = this.now.toISOString();
  }

  private findIncident(id: string): { v: FleetVendor; index: number } {
    for (const v of this.vendors.values()) {
      const index = v.incidents.findIndex((i) => i.id === id);
      if (index >= 0) return { v, index };
    }
    throw new Error(`simulator has no incident '${id}'`);
  }

  private findMaintenance(id: string): { v: FleetVendor; index: number } {
    for (const v of this.vendors.values()) {
      const index = v.maintenances.findIndex((m) => m.id === id);
      if (index >= 0) return { v, index };
    }
    throw new Error(`simulator has no maintenance '${id}'`);
  }

  /** Past history so a fresh demo has something to show on the first poll. */
  private backfill(slug: string) {
    const v = this.require(slug);
    const r = this.random;
    const now = this.now.getTime();
    const count = between(r, 2, 6);
    for (let k = 0; k < count; k++) {
      const start = now - between(r, 2 * 60, 29 * 24 * 60) * MINUTE;
      const component = pick(r, v.components).name;
      const impact = pick(r, IMPACTS);
      const minutes = between(r, 15, 240);
      const updates = STAGES.map((stage, i) => ({
        status: stage === 'identified' ? 'investigating' : stage,
        body: STAGE_TEXT[stage].replace('{c}', component),
        createdAt: new Date(start + Math.round((minutes * MINUTE * i) / 3)).toISOString(),
      })).reverse();
      const end = new Date(start + minutes * MINUTE).toISOString();
      v.incidents.push({
        id: `${slug}:${this.nextId('i')}`,
        vendor: slug,
        title: pick(r, TITLES).replace('{c}', component),
        status: 'resolved',
        sourceStatus: 'resolved',
        impact,
        startedAt: new Date(start).toISOString(),
        updatedAt: end,
        resolvedAt: end,
        components: [component],
        updates,
        url: null,
        source: 'simulator',
      });
    }
    v.incidents.sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
    if (r() < 0.2) this.openIncident(slug);
    if (r() < 0.3) this.scheduleMaintenance(slug, { startsInMs: between(r, 5, 60) * MINUTE, durationMs: between(r, 10, 30) * MINUTE });
    const spec = this.specs.get(slug);
    // The newest publication is recent enough for the shortest plan window (7 days).
    if (spec?.advisories) {
      this.publishAdvisory(slug, now - between(r, 2, 120) * HOUR);
      for (let k = between(r, 1, 3); k > 0; k--) this.publishAdvisory(slug, now - between(r, 1, 60) * DAY);
    }
    if (spec?.updates) {
      this.publishUpdate(slug, now - between(r, 2, 72) * HOUR);
      for (let k = between(r, 2, 5); k > 0; k--) this.publishUpdate(slug, now - between(r, 1, 30) * DAY);
    }
  }

  openIncident(slug: string, o: { impact?: Impact; title?: string; component?: string } = {}): IncidentRecord {
    const v = this.require(slug);
    const component = o.component ?? pick(this.random, v.components).name;
    const at = this.now.toISOString();
    const incident: IncidentRecord = {
      id: `${slug}:${this.nextId('i')}`,
      vendor: slug,
      title: o.title ?? pick(this.random, TITLES).replace('{c}', component),
      status: 'investigating',
      sourceStatus: 'investigating',
      impact: o.impact ?? pick(this.random, IMPACTS),
      startedAt: at,
      updatedAt: at,
      resolvedAt: null,
      components: [component],
      updates: [{ status: 'investigating', body: STAGE_TEXT.investigating.replace('{c}', component), createdAt: at }],
      url: null,
      source: 'simulator',
    };
    v.incidents.unshift(incident);
    v.incidents.length = Math.min(v.incidents.length, HISTORY);
    this.touch(v);
    return incident;
  }

  /** Moves an open incident to its next stage (investigating → identified → monitoring → resolved). */
  advanceIncident(id: string): IncidentRecord {
    const { v, index } = this.findIncident(id);
    const cur = v.incidents[index]!;
    if (cur.status === 'resolved') return cur;
    const stage = STAGES[Math.min(STAGES.indexOf(cur.sourceStatus as (typeof STAGES)[number]) + 1, STAGES.length - 1)]!;
    return this.setStage(v, index, stage);
  }

  resolveIncident(id: string): IncidentRecord {
    const { v, index } = this.findIncident(id);
    if (v.incidents[index]!.status === 'resolved') return v.incidents[index]!;
    return this.setStage(v, index, 'resolved');
  }

  private setStage(v: FleetVendor, index: number, stage: (typeof STAGES)[number]): IncidentRecord {
    const cur = v.incidents[index]!;
    const at = this.now.toISOString();
    const status = stage === 'identified' || stage === 'investigating' ? 'investigating' : stage;
    const next: IncidentRecord = {
      ...cur,
      status,
      sourceStatus: stage,
      updatedAt: at,
      resolvedAt: stage === 'resolved' ? at : null,
      updates: [{ status, body: STAGE_TEXT[stage].replace('{c}', cur.components[0] ?? 'the service'), createdAt: at }, ...cur.updates],
    };
    v.incidents[index] = next;
    this.touch(v);
    return next;
  }

  scheduleMaintenance(slug: string, o: { startsInMs: number; durationMs: number; component?: string }): MaintenanceRecord {
    const v = this.require(slug);
    const component = o.component ?? pick(this.random, v.components).name;
    const now = this.now.getTime();
    const m: MaintenanceRecord = {
      id: `${slug}:${this.nextId('m')}`,
      vendor: slug,
      title: `Scheduled maintenance of ${component}`,
      status: 'scheduled',
      sourceStatus: 'scheduled',
      impact: 'none',
      scheduledFor: new Date(now + o.startsInMs).toISOString(),
      scheduledUntil: new Date(now + o.startsInMs + o.durationMs).toISOString(),
      startedAt: null,
      completedAt: null,
      components: [component],
      updates: [
        {
          status: 'scheduled',
          body: `${component} will undergo scheduled maintenance. Short interruptions are possible.`,
          createdAt: new Date(now).toISOString(),
        },
      ],
      url: null,
      source: 'simulator',
    };
    v.maintenances.unshift(m);
    v.maintenances.length = Math.min(v.maintenances.length, HISTORY);
    this.touch(v);
    return m;
  }

  /** Moves a window to its next state (scheduled → in_progress → verifying → completed). */
  advanceMaintenance(id: string): MaintenanceRecord {
    const { v, index } = this.findMaintenance(id);
    const cur = v.maintenances[index]!;
    const order = ['scheduled', 'in_progress', 'verifying', 'completed'] as const;
    const status = order[Math.min(order.indexOf(cur.status) + 1, order.length - 1)]!;
    if (status === cur.status) return cur;
    const at = this.now.toISOString();
    const text = {
      scheduled: '',
      in_progress: 'Scheduled maintenance is currently in progress.',
      verifying: 'Maintenance work is done; we are verifying that everything works as expected.',
      completed: 'The scheduled maintenance has been completed.',
    }[status];
    const next: MaintenanceRecord = {
      ...cur,
      status,
      sourceStatus: status,
      startedAt: cur.startedAt ?? at,
      completedAt: status === 'completed' ? at : null,
      updates: [{ status, body: text, createdAt: at }, ...cur.updates],
    };
    v.maintenances[index] = next;
    this.touch(v);
    return next;
  }

  publishAdvisory(slug: string, atMs = this.now.getTime()): AdvisoryRecord {
    const v = this.require(slug);
    const component = pick(this.random, v.components).name;
    const impact = pick(this.random, IMPACTS);
    const at = new Date(atMs).toISOString();
    const n = this.nextId('a');
    // The year 2099 keeps made-up identifiers from ever matching a real CVE.
    const cve = `CVE-2099-${String(10000 + between(this.random, 0, 89999))}`;
    const a: AdvisoryRecord = {
      id: `${slug}:${n}`,
      vendor: slug,
      title: `${pick(this.random, ADVISORY_TOPICS).replace('{c}', component)} (${cve})`,
      severity: SEVERITY_OF[impact],
      cves: [cve],
      publishedAt: at,
      updatedAt: at,
      summary: `A simulated security advisory for ${v.name} ${component}. Upgrade to the latest version.`,
      url: null,
      source: 'simulator',
    };
    v.advisories.unshift(a);
    v.advisories.sort((x, y) => (x.publishedAt < y.publishedAt ? 1 : -1));
    v.advisories.length = Math.min(v.advisories.length, HISTORY);
    this.touch(v);
    return a;
  }

  publishUpdate(slug: string, atMs = this.now.getTime()): UpdateRecord {
    const v = this.require(slug);
    const component = pick(this.random, v.components).name;
    const at = new Date(atMs).toISOString();
    const u: UpdateRecord = {
      id: `${slug}:${this.nextId('u')}`,
      vendor: slug,
      title: pick(this.random, RELEASE_TOPICS).replace('{c}', component),
      publishedAt: at,
      summary: `A simulated release note for ${v.name} ${component}.`,
      categories: [pick(this.random, ['feature', 'improvement', 'fix', 'deprecation'])],
      url: null,
      source: 'simulator',
    };
    v.updates.unshift(u);
    v.updates.sort((x, y) => (x.publishedAt < y.publishedAt ? 1 : -1));
    v.updates.length = Math.min(v.updates.length, HISTORY);
    this.touch(v);
    return u;
  }

  /** One tick of simulated time: incidents and windows move on, new ones appear. */
  step(): FleetChange[] {
    const r = this.random;
    const now = this.now.toISOString();
    const changes: FleetChange[] = [];
    for (const v of this.vendors.values()) {
      for (const i of v.incidents.filter((x) => x.status !== 'resolved')) {
        if (r() < this.rates.advanceIncident) {
          const next = this.advanceIncident(i.id);
          changes.push({ vendor: v.slug, kind: next.status === 'resolved' ? 'incident.resolved' : 'incident.progressed', id: i.id });
        }
      }
      for (const m of v.maintenances.filter((x) => x.status !== 'completed')) {
        const due =
          (m.status === 'scheduled' && m.scheduledFor <= now) ||
          (m.status === 'in_progress' && m.scheduledUntil !== null && m.scheduledUntil <= now) ||
          m.status === 'verifying';
        if (due) {
          const next = this.advanceMaintenance(m.id);
          const kind = next.status === 'in_progress' ? 'maintenance.started' : next.status === 'verifying' ? 'maintenance.verifying' : 'maintenance.completed';
          changes.push({ vendor: v.slug, kind, id: m.id });
        }
      }
      const open = v.incidents.filter((x) => x.status !== 'resolved').length;
      if (open < 2 && r() < this.rates.newIncident) {
        changes.push({ vendor: v.slug, kind: 'incident.opened', id: this.openIncident(v.slug).id });
      }
      const pending = v.maintenances.filter((x) => x.status !== 'completed').length;
      if (pending < 1 && r() < this.rates.newMaintenance) {
        const m = this.scheduleMaintenance(v.slug, { startsInMs: between(r, 1, 3) * MINUTE, durationMs: between(r, 1, 4) * MINUTE });
        changes.push({ vendor: v.slug, kind: 'maintenance.scheduled', id: m.id });
      }
      const spec = this.specs.get(v.slug);
      if (spec?.advisories && r() < this.rates.advisory) {
        changes.push({ vendor: v.slug, kind: 'advisory.published', id: this.publishAdvisory(v.slug).id });
      }
      if (spec?.updates && r() < this.rates.update) {
        changes.push({ vendor: v.slug, kind: 'update.published', id: this.publishUpdate(v.slug).id });
      }
    }
    return changes;
  }

  /** Components with their current status (worst open incident, else maintenance in progress). */
  components(slug: string): ComponentRecord[] {
    const v = this.require(slug);
    return v.components.map((c, position) => {
      let status: ComponentStatus = 'operational';
      for (const i of v.incidents) {
        if (i.status === 'resolved' || !i.components.includes(c.name)) continue;
        const s = COMPONENT_OF_IMPACT[i.impact];
        if (RANK[s] > RANK[status]) status = s;
      }
      if (status === 'operational' && v.maintenances.some((m) => (m.status === 'in_progress' || m.status === 'verifying') && m.components.includes(c.name))) {
        status = 'under_maintenance';
      }
      return { id: c.id, name: c.name, status, group: c.group, position };
    });
  }

  indicator(slug: string): { indicator: Indicator; description: string } {
    const v = this.require(slug);
    const order: Impact[] = ['none', 'minor', 'major', 'critical'];
    const open = v.incidents.filter((i) => i.status !== 'resolved');
    const worst = open.reduce<Impact | null>((w, i) => (w === null || order.indexOf(i.impact) > order.indexOf(w) ? i.impact : w), null);
    if (worst === 'critical') return { indicator: 'major_outage', description: 'Major System Outage' };
    if (worst === 'major') return { indicator: 'partial_outage', description: 'Partial System Outage' };
    if (worst === 'minor') return { indicator: 'degraded', description: 'Minor Service Outage' };
    if (v.maintenances.some((m) => m.status === 'in_progress' || m.status === 'verifying')) {
      return { indicator: 'maintenance', description: 'Service Under Maintenance' };
    }
    return { indicator: 'operational', description: 'All Systems Operational' };
  }
}
