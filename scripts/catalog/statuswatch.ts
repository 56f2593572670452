// Reader for statuswatch's built-in catalog (docs/catalog.md "Evidence": STATUSWATCH), a
// browser extension that polls each page with the fetcher its `type` names. What the merge
// does with the pages is in listed.ts.
import type { ListedPage, ListedPlatform } from './lists.ts';
import { pageUrl } from './merge.ts';

export const STATUSWATCH_COMMIT = '75edad5f1ac0c07a7c85f0aa003cd12fa0656808';

const STATUSIO_ID = /^[0-9a-f]{24}$/;

/**
 * statuswatch's `type` in our words. Its `incidentio` fetcher is its Statuspage one (the
 * extension says incident.io pages answer the same `/api/v2` endpoints), so such a page is
 * polled at the Statuspage-compatible summary; `statusio` needs the entry's `pageId`.
 * Its bespoke fetchers (auth0, google, site24x7, uptimerobot, ...) have no adapter here.
 */
function platformOf(type: string, pageId: string | null): ListedPlatform | null {
  switch (type) {
    case 'statuspage':
      return 'statuspage';
    case 'incidentio':
      return 'incidentio-compat';
    case 'statusio':
      return pageId && STATUSIO_ID.test(pageId) ? 'statusio' : null;
    case 'instatus':
      return 'instatus';
    case 'hund':
      return 'hund';
    case 'cachet':
      return 'cachet';
    case 'sorryapp':
      return 'sorry';
    default:
      return null;
  }
}

const field = (body: string, name: string) => new RegExp(`\\b${name}:\\s*'([^']*)'`).exec(body)?.[1] ?? null;

/**
 * `PedroTroller/statuswatch:proxy/catalog.js`: `const CATALOG = { '<id>': { name, type,
 * websiteUrl, statusPageUrl, pageId?, ... }, ... }`, written as a JavaScript literal.
 */
export function readStatuswatch(text: string): ListedPage[] {
  const start = text.indexOf('const CATALOG');
  if (start < 0) return [];
  const out: ListedPage[] = [];
  // Each entry is one `'<id>': { ... }` object; none of them nests another object.
  for (const m of text.slice(start).matchAll(/\n\s*'[^']+':\s*\{([^{}]*)\}/g)) {
    const body = m[1]!;
    const name = field(body, 'name')?.trim();
    const type = field(body, 'type');
    const page = pageUrl(field(body, 'statusPageUrl') ?? '');
    if (!name || !type || !page) continue;
    const pageId = field(body, 'pageId');
    const website = pageUrl(field(body, 'websiteUrl') ?? '');
    out.push({
      key: 'STATUSWATCH',
      commit: STATUSWATCH_COMMIT,
      name,
      page,
      platform: platformOf(type, pageId),
      listPlatform: type,
      pageId,
      endpoint: null,
      category: null,
      ...(website ? { website } : {}),
    });
  }
  return out;
}
