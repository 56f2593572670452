// Upstream bodies arrive as HTML fragments, Markdown-ish text or plain text with
// entities. Records carry plain text only: tags stripped, entities decoded,
// whitespace collapsed to single spaces.
//
// Vendor pages are untrusted input (docs/security.md): every transform here is one
// linear pass (a real HTML tokenizer, no backtracking regular expressions), and the
// input is cut to MAX_HTML_CHARS before it is read, so the work per payload is bounded.
import { decodeHTML } from 'entities';
import { scanHtml } from './html-scan.ts';

/** HTML read per field; the text kept from it is capped again at ingestion (docs/ingestion.md). */
export const MAX_HTML_CHARS = 128 * 1024;

/** HTML entities (the full WHATWG table, numeric references included). */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}

export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** One line of a page's text: control characters become spaces, whitespace collapses. */
export function plainLine(text: string): string {
  return collapseWhitespace(text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' '));
}

// Block-level boundaries become spaces so words from adjacent paragraphs don't merge.
const BLOCK = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'tr', 'td', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr']);
const SKIPPED = new Set(['script', 'style']);

/**
 * HTML fragment → plain text, by the htmlparser2 tokenizer: tags and comments are
 * dropped, `script`/`style` contents too, entities in text are decoded once (so
 * escaped markup stays text). An unclosed `<!--`, tag or `<script` swallows the rest
 * of the fragment, as in a browser, in one pass.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  const parts: string[] = [];
  let skipping = 0;
  // The tokenizer alone (html-scan.ts): htmlparser2's Parser keeps an element stack that
  // costs quadratic time on a fragment of many unclosed tags.
  scanHtml(html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html, {
    open(name) {
      if (SKIPPED.has(name)) skipping++;
      else if (BLOCK.has(name)) parts.push(' ');
    },
    close(name) {
      if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1);
      else if (BLOCK.has(name)) parts.push(' ');
    },
    text(text) {
      if (!skipping) parts.push(text);
    },
  });
  return collapseWhitespace(parts.join(''));
}

/** Shortens long prose at a word boundary, for summaries. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
