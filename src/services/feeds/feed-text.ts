import { escapeHtml } from '../../domain/html-escape.ts';

// Vendor text in a feed entry's title and summary. The feed library writes Atom entry
// titles and summaries as `type="html"`, so a vendor title holding `<img onerror=…>`
// was markup to every Atom reader; escaped, it is read as the text it is
// (docs/security.md, "Atom feeds"). RSS titles and descriptions are text already.
export const feedText = (format: 'rss' | 'atom', text: string) => (format === 'atom' ? escapeHtml(text) : text);
