// Okta's status page, `https://status.okta.com`: an HTML page that carries its incident
// records as JSON in the text of the element marked `data-id="incidents"`. Each record has
// `Status__c` (open until "Resolved"), `Category__c` (Okta's impact words) and
// `Service_Feature__c`. Titles and times are not evidenced, so the page state alone is read,
// from the open records. Mapping: docs/mappings.md "Okta".
import { Type } from '@sinclair/typebox';
import type { Indicator } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { decodeBody, parseJsonText } from './body.ts';
import { scanHtml } from './html-scan.ts';
import { INDICATOR_DESCRIPTIONS } from './mapping.ts';
import { plainLine, truncate } from './text.ts';
import { check, OptStr } from './validate.ts';

const SOURCE = 'okta-status';
/** The page is read up to this many characters; the records sit in its body. */
const MAX_PAGE_CHARS = 4 * 1024 * 1024;

const PayloadSchema = Type.Array(Type.Object({ Status__c: Type.String(), Category__c: Type.String(), Service_Feature__c: OptStr }));

/** The text inside the first element with `data-id="incidents"`, or null when there is none. */
export function incidentsElementText(html: string): string | null {
  let depth = 0;
  let found = false;
  let done = false;
  const parts: string[] = [];
  scanHtml(html.slice(0, MAX_PAGE_CHARS), {
    open(_name, attributes) {
      if (done) return;
      if (found) depth++;
      else if (attributes['data-id'] === 'incidents') {
        found = true;
        depth = 1;
      }
    },
    text(text) {
      if (found && !done) parts.push(text);
    },
    close() {
      if (found && !done && --depth === 0) done = true;
    },
  });
  return found ? parts.join('') : null;
}

const RANK: Record<Indicator, number> = { operational: 0, maintenance: 1, degraded: 2, partial_outage: 3, major_outage: 4, unknown: 5 };

/** Okta's category words; a "tp" service feature counts as a degradation, as the page shows it. */
export function oktaIndicator(category: string, feature: string | null | undefined): Indicator {
  if ((feature ?? '').trim().toLowerCase() === 'tp') return 'degraded';
  switch (category.trim().toLowerCase()) {
    case 'major service disruption':
      return 'major_outage';
    case 'service disruption':
    case 'minor service disruption':
      return 'partial_outage';
    case 'service degradation':
    case 'performance issue':
    case 'feature disruption':
      return 'degraded';
    default:
      return 'unknown';
  }
}

export const oktaStatusAdapter = defineAdapter('okta-status', (input: AdapterInput) => {
  const text = incidentsElementText(decodeBody(SOURCE, input.body, input.contentType));
  if (text === null) throw new AdapterError(`${SOURCE}: no element with data-id="incidents"`, { kind: 'no incident records in the page' });
  const records = check(SOURCE, PayloadSchema, parseJsonText(SOURCE, text));
  const open = records.filter((r) => r.Status__c.trim().toLowerCase() !== 'resolved');
  if (open.length === 0) return { status: { indicator: 'operational', description: INDICATOR_DESCRIPTIONS.operational } };
  const indicator = open.map((r) => oktaIndicator(r.Category__c, r.Service_Feature__c)).reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
  // Okta's own category words describe the state, as its page shows them.
  const words = truncate([...new Set(open.map((r) => plainLine(r.Category__c)).filter(Boolean))].sort().join(', '), 200);
  return { status: { indicator, description: words || INDICATOR_DESCRIPTIONS[indicator] } };
});
