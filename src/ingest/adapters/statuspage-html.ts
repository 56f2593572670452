// Atlassian Statuspage pages read from their HTML, for pages whose JSON API (`/api/v2/...`)
// is switched off or blocked. The index page carries, in markup that has stayed the same for
// years: the page status (`.page-status.status-<indicator>`), every component
// (`data-component-id`, `data-component-status`, groups in `.component-container.is-group`
// with their children in `.child-components-container`), and every unresolved incident
// (`.unresolved-incident.impact-<impact>`, its title linking to `/incidents/<code>`, its
// updates with the phase word in `<strong>` and the time in `<small>`). Mapping and sources:
// docs/mappings.md "Statuspage pages in HTML".
//
// One pass of the htmlparser2 tokenizer over a page of at most MAX_PAGE_CHARS, nested at most
// MAX_DEPTH deep; each text kept is capped too, so the work and memory per page are bounded
// whatever the page holds.
import { Parser } from 'htmlparser2';
import type { ComponentRecord, IncidentRecord, Indicator, MaintenanceRecord, RecordUpdate } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { decodeBody } from './body.ts';
import { orderComponents, type RawComponent, type RawGroup } from './components.ts';
import { componentStatusFrom, impactFrom, INDICATOR_DESCRIPTIONS, incidentStatusFrom, indicatorFrom, maintenanceStatusFrom, recordId } from './mapping.ts';
import { collapseWhitespace } from './text.ts';
import { monthIndex, wallClockToIso, ZONE_OFFSETS_MINUTES } from './time.ts';

const SOURCE = 'statuspage-html';

/** A Statuspage index page is 0.1–0.6 MB; four times the largest seen is still read, more is refused. */
export const MAX_PAGE_CHARS = 4 * 1024 * 1024;
const MAX_TEXT = 64 * 1024;
const MAX_COMPONENTS = 2000;
const MAX_INCIDENTS = 200;
const MAX_UPDATES = 500;
/** Statuspage's own markup nests about 20 deep. */
const MAX_DEPTH = 256;

interface RawUpdate {
  word: string;
  body: string;
  time: string;
  unixMs: string | null;
}

interface RawIncident {
  impact: string;
  title: string;
  href: string | null;
  updates: RawUpdate[];
}

/** What one pass over the page found, before mapping. */
interface PageRead {
  pageStatusSeen: boolean;
  pageStatusWord: string | null;
  pageStatusText: string;
  bodyStatusWord: string | null;
  components: RawComponent[];
  groups: RawGroup[];
  incidents: RawIncident[];
  incidentsBlockSeen: boolean;
}

const classesOf = (attribs: Record<string, string>) => new Set((attribs.class ?? '').split(/\s+/).filter(Boolean));
/** The word after a class prefix (`status-minor` → `minor`), or null. */
const suffixOf = (classes: Set<string>, prefix: string) => {
  for (const c of classes) if (c.startsWith(prefix) && c.length > prefix.length) return c.slice(prefix.length);
  return null;
};

/** A text buffer that stops growing at its cap. */
class Text {
  private parts: string[] = [];
  private size = 0;
  add(text: string) {
    if (this.size >= MAX_TEXT) return;
    const piece = text.slice(0, MAX_TEXT - this.size);
    this.parts.push(piece);
    this.size += piece.length;
  }
  get value() {
    return collapseWhitespace(this.parts.join(''));
  }
}

type Role = 'group' | 'children' | 'component' | 'name' | 'pageStatus' | 'pageStatusText' | 'incident' | 'title' | 'update' | 'word' | 'time' | 'skip';

function readPage(html: string): PageRead {
  const read: PageRead = {
    pageStatusSeen: false,
    pageStatusWord: null,
    pageStatusText: '',
    bodyStatusWord: null,
    components: [],
    groups: [],
    incidents: [],
    incidentsBlockSeen: false,
  };
  // Open roles are counted, not searched for: a deeply nested page costs no more per tag.
  const stack: (Role | null)[] = [];
  const open = new Map<Role, number>();
  const has = (role: Role) => (open.get(role) ?? 0) > 0;
  let group: { header: boolean; raw: RawGroup } | null = null;
  let component: { id: string; status: string; name: Text; header: boolean } | null = null;
  let pageStatusText: Text | null = null;
  let incident: { raw: RawIncident; title: Text } | null = null;
  let update: { word: Text; worded: boolean; body: Text; time: Text; unixMs: string | null } | null = null;
  let order = 0;
  let componentRows = 0;

  /** What an opening tag is to the reader, starting what it collects; null: nothing of ours. */
  const roleOf = (name: string, attribs: Record<string, string>): Role | null => {
    if (name === 'script' || name === 'style' || name === 'template' || name === 'noscript' || has('skip')) return 'skip';
    const classes = classesOf(attribs);
    if (name === 'body') read.bodyStatusWord = suffixOf(classes, 'status-');
    if ('data-component-status' in attribs && !component) {
      const header = group !== null && !group.header && !has('children');
      component = { id: (attribs['data-component-id'] ?? '').trim(), status: attribs['data-component-status'] ?? '', name: new Text(), header };
      return 'component';
    }
    if (component) return classes.has('name') ? 'name' : null;
    if (classes.has('component-container') && classes.has('is-group') && !group) {
      group = { header: false, raw: { id: '', name: '', position: order++, children: [] } };
      return 'group';
    }
    if (group && classes.has('child-components-container')) return 'children';
    if (classes.has('page-status') && !has('pageStatus')) {
      read.pageStatusSeen = true;
      read.pageStatusWord = suffixOf(classes, 'status-');
      pageStatusText = new Text();
      return 'pageStatus';
    }
    if (has('pageStatus') && classes.has('status')) return 'pageStatusText';
    if (classes.has('unresolved-incidents')) read.incidentsBlockSeen = true;
    if (classes.has('unresolved-incident') && !incident) {
      if (read.incidents.length >= MAX_INCIDENTS)
        throw new AdapterError(`${SOURCE}: more than ${MAX_INCIDENTS} unresolved incidents`, { kind: 'too many incidents' });
      incident = { raw: { impact: suffixOf(classes, 'impact-') ?? '', title: '', href: null, updates: [] }, title: new Text() };
      return 'incident';
    }
    if (!incident) return null;
    if (classes.has('actual-title') && !has('title') && !update) {
      if (attribs.href) incident.raw.href = attribs.href;
      return 'title';
    }
    if (classes.has('update') && !update) {
      if (incident.raw.updates.length >= MAX_UPDATES)
        throw new AdapterError(`${SOURCE}: more than ${MAX_UPDATES} updates in one incident`, { kind: 'too many updates' });
      update = { word: new Text(), worded: false, body: new Text(), time: new Text(), unixMs: null };
      return 'update';
    }
    if (update && name === 'strong' && !update.worded) {
      // The first <strong> is the phase word; later ones are emphasis in the text.
      update.worded = true;
      return 'word';
    }
    if (update && name === 'small') return 'time';
    return null;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const role = roleOf(name, attribs);
        if (update && (role === 'time' || has('time')) && attribs['data-datetime-unix']) update.unixMs = attribs['data-datetime-unix'];
        stack.push(role);
        // htmlparser2 keeps open elements in an array it shifts and searches: nesting is bounded
        // so that each tag costs at most MAX_DEPTH steps there.
        if (stack.length > MAX_DEPTH) throw new AdapterError(`${SOURCE}: elements nested deeper than ${MAX_DEPTH}`, { kind: 'nesting too deep' });
        if (role) open.set(role, (open.get(role) ?? 0) + 1);
      },
      ontext(text) {
        if (has('skip')) return;
        if (component && has('name')) component.name.add(text);
        if (pageStatusText && has('pageStatusText')) pageStatusText.add(text);
        if (incident && has('title')) incident.title.add(text);
        if (update) {
          if (has('word')) update.word.add(text);
          else if (has('time')) update.time.add(text);
          else update.body.add(text);
        }
      },
      onclosetag() {
        const role = stack.pop();
        if (role) open.set(role, (open.get(role) ?? 1) - 1);
        if (role === 'component' && component) {
          // Group rows count too: a page of empty groups is bounded like one of components.
          if (++componentRows > MAX_COMPONENTS) throw new AdapterError(`${SOURCE}: more than ${MAX_COMPONENTS} components`, { kind: 'too many components' });
          if (component.header && group) {
            group.header = true;
            group.raw.name = component.name.value || component.id;
            group.raw.id = component.id || group.raw.name;
          } else {
            const name = component.name.value || component.id;
            // The page's id when it gives one, else the name (ids are stable within the vendor).
            const raw: RawComponent = {
              id: component.id || name,
              name,
              status: componentStatusFrom(component.status),
              position: null,
            };
            // Page order: a group's children in their own order, the top level as it comes.
            if (group && has('children')) group.raw.children.push(raw);
            else read.components.push({ ...raw, position: order++ });
          }
          component = null;
        } else if (role === 'group' && group) {
          // A group without its own row has no name: its children are shown, ungrouped.
          if (group.header) read.groups.push(group.raw);
          else for (const c of group.raw.children) read.components.push({ ...c, position: order++ });
          group = null;
        } else if (role === 'pageStatus' && pageStatusText) {
          read.pageStatusText = pageStatusText.value;
          pageStatusText = null;
        } else if (role === 'update' && update && incident) {
          incident.raw.updates.push({
            word: update.word.value,
            body: update.body.value.replace(/^-\s*/, ''),
            time: update.time.value,
            unixMs: update.unixMs,
          });
          update = null;
        } else if (role === 'incident' && incident) {
          incident.raw.title = incident.title.value;
          read.incidents.push(incident.raw);
          incident = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return read;
}

/**
 * An update's time: the page's own epoch milliseconds (`data-datetime-unix`, newer markup),
 * else the printed wall-clock time ("Jan 12, 16:04 UTC", "Sep 13, 2022 - 23:01 CEST") with its
 * zone; a date printed without a year is the one within half a year of the poll. A zone the
 * table does not know leaves the time unknown.
 */
export function statuspageHtmlTime(u: Pick<RawUpdate, 'time' | 'unixMs'>, now: Date): string | null {
  if (u.unixMs && /^\d{10,14}$/.test(u.unixMs.trim())) {
    const d = new Date(Number(u.unixMs.trim()));
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  const m = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s*(?:(\d{4})\s*-?\s*)?(\d{1,2}):(\d{2})\s*([AaPp][Mm])?\s*([A-Za-z]{1,5})\b/.exec(u.time);
  if (!m) return null;
  const month = monthIndex(m[1]!);
  const offset = ZONE_OFFSETS_MINUTES[m[7]!.toUpperCase()];
  if (month < 0 || offset === undefined) return null;
  let hour = Number(m[4]);
  const meridiem = m[6]?.toLowerCase();
  if (meridiem) hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  const day = Number(m[2]);
  if (day < 1 || day > 31 || hour > 23 || Number(m[5]) > 59) return null;
  return wallClockToIso({ month, day, hour, minute: Number(m[5]), ...(m[3] ? { year: Number(m[3]) } : {}) }, offset, now.toISOString());
}

const INCIDENT_PHASES = new Set(['investigating', 'identified', 'monitoring', 'resolved', 'postmortem']);
const MAINTENANCE_PHASES = new Set(['scheduled', 'in progress', 'verifying', 'completed']);

/** `/incidents/<code>` of the title link; the title itself when a page links nowhere. */
function upstreamId(raw: RawIncident): string {
  const code = /\/incidents\/([A-Za-z0-9_-]{1,64})/.exec(raw.href ?? '')?.[1];
  return code ?? `title:${raw.title.toLowerCase().slice(0, 120)}`;
}

function absoluteUrl(href: string | null, pageUrl: string): string | null {
  if (!href) return null;
  try {
    const u = new URL(href, pageUrl);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

interface TimedUpdate {
  word: string;
  body: string;
  createdAt: string;
}

/** The page lists updates newest first; one without a readable time is left out. */
function timedUpdates(raw: RawIncident, now: Date): TimedUpdate[] {
  const out: TimedUpdate[] = [];
  for (const u of raw.updates) {
    const createdAt = statuspageHtmlTime(u, now);
    if (createdAt) out.push({ word: u.word, body: u.body, createdAt });
  }
  return out.sort((a, b) => (a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? 1 : -1));
}

const own = (word: string) => (word ? { sourceStatus: word } : {});

/**
 * Each update's normalised phase, newest first: an "Update" keeps the phase the record was in
 * when it was written, as the page shows it; the oldest ones before any phase word get `initial`.
 */
function carryPhase<S extends string>(updates: TimedUpdate[], phases: ReadonlySet<string>, normalise: (word: string) => S, initial: S): S[] {
  const out: S[] = new Array(updates.length);
  let current = initial;
  for (let i = updates.length - 1; i >= 0; i--) {
    const word = updates[i]!.word.toLowerCase();
    if (phases.has(word)) current = normalise(word);
    out[i] = current;
  }
  return out;
}

function mapIncident(raw: RawIncident, input: AdapterInput): IncidentRecord {
  const id = upstreamId(raw);
  const updates = timedUpdates(raw, input.now);
  if (updates.length === 0) throw new AdapterError(`${SOURCE}: incident ${id} has no update with a readable time`, { kind: 'missing or unparseable date' });
  // "Update" keeps the phase the incident was in: the newest phase word decides.
  const phase = updates.find((u) => INCIDENT_PHASES.has(u.word.toLowerCase()))?.word.toLowerCase() ?? null;
  const status = incidentStatusFrom(phase);
  const newest = updates[0]!;
  const startedAt = updates.at(-1)!.createdAt;
  const statuses = carryPhase(updates, INCIDENT_PHASES, (w) => incidentStatusFrom(w), 'investigating');
  const records: RecordUpdate[] = updates.map((u, i) => ({ status: statuses[i]!, ...own(u.word), body: u.body, createdAt: u.createdAt }));
  return {
    id: recordId(input.vendor, id),
    vendor: input.vendor,
    title: raw.title || id,
    status,
    sourceStatus: phase ?? (newest.word.toLowerCase() || 'unresolved'),
    impact: impactFrom(raw.impact),
    startedAt,
    updatedAt: newest.createdAt,
    resolvedAt: status === 'resolved' ? (updates.find((u) => incidentStatusFrom(u.word) === 'resolved')?.createdAt ?? newest.createdAt) : null,
    components: [],
    updates: records,
    url: absoluteUrl(raw.href, input.url),
    source: SOURCE,
  };
}

/** An unresolved block with `impact-maintenance` is a maintenance under way (upcoming ones are not on the page's top). */
function mapMaintenance(raw: RawIncident, input: AdapterInput): MaintenanceRecord {
  const id = upstreamId(raw);
  const updates = timedUpdates(raw, input.now);
  if (updates.length === 0) throw new AdapterError(`${SOURCE}: maintenance ${id} has no update with a readable time`, { kind: 'missing or unparseable date' });
  const phase = updates.find((u) => MAINTENANCE_PHASES.has(u.word.toLowerCase()))?.word ?? null;
  const status = maintenanceStatusFrom(phase ?? 'in_progress');
  const begun = updates.filter((u) => u.word.toLowerCase() === 'in progress').at(-1)?.createdAt;
  const first = updates.at(-1)!.createdAt;
  const statuses = carryPhase(updates, MAINTENANCE_PHASES, (w) => maintenanceStatusFrom(w), 'in_progress');
  const startedAt = status === 'scheduled' ? null : (begun ?? first);
  return {
    id: recordId(input.vendor, id),
    vendor: input.vendor,
    title: raw.title || id,
    status,
    sourceStatus: (phase ?? 'in progress').toLowerCase(),
    impact: 'none',
    // The window itself is not printed on the page: its start is when the work was said to begin.
    scheduledFor: begun ?? first,
    scheduledUntil: null,
    startedAt,
    completedAt: status === 'completed' ? updates[0]!.createdAt : null,
    components: [],
    updates: updates.map((u, i) => ({ status: statuses[i]!, ...own(u.word), body: u.body, createdAt: u.createdAt })),
    url: absoluteUrl(raw.href, input.url),
    source: SOURCE,
  };
}

function indicatorOf(read: PageRead): Indicator {
  const word = read.pageStatusWord ?? read.bodyStatusWord;
  return word ? indicatorFrom(word) : 'unknown';
}

export const statuspageHtmlAdapter = defineAdapter('statuspage-html', (input: AdapterInput) => {
  const html = decodeBody(SOURCE, input.body, input.contentType);
  if (html.length > MAX_PAGE_CHARS) throw new AdapterError(`${SOURCE}: page larger than ${MAX_PAGE_CHARS} characters`, { kind: 'page too large' });
  if (/^[{[]/.test(html.trimStart())) throw new AdapterError(`${SOURCE}: got JSON, expected an HTML page`, { kind: 'not an HTML page' });
  const read = readPage(html);
  if (read.components.length === 0 && read.groups.length === 0 && !read.pageStatusSeen && !read.incidentsBlockSeen) {
    // A login wall, an error page or markup that changed: nothing here says what the page shows.
    throw new AdapterError(`${SOURCE}: no Statuspage components, page status or incidents in the page`, { kind: 'not a Statuspage HTML page' });
  }
  const components: ComponentRecord[] = orderComponents(read.components, read.groups);
  const indicator = indicatorOf(read);
  const maintenance = read.incidents.filter((i) => i.impact === 'maintenance');
  return {
    status: { indicator, description: read.pageStatusText || INDICATOR_DESCRIPTIONS[indicator] },
    components,
    // The top of the index page lists every unresolved incident: one no longer there is over.
    incidents: read.incidents.filter((i) => i.impact !== 'maintenance').map((i) => mapIncident(i, input)),
    incidentsAreCompleteUnresolvedSet: true,
    maintenances: maintenance.map((i) => mapMaintenance(i, input)),
  };
});
