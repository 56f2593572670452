import { escapeUTF8 } from 'entities';

// The one place text is escaped for markup. Vendor text is untrusted wherever it is
// shown (docs/security.md): every page, feed, e-mail and chat message that carries it
// escapes it with one of these three.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text for HTML content or a quoted attribute value (pages, e-mail bodies, HTML inside feeds). */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Only `&`, `<` and `>`: text between tags, and the formats that know no other entity
 * (Slack mrkdwn, Google Chat card text). The HTML that ingestion stores from plain text
 * is written this way too, so its fingerprints stay what they were (docs/ingestion.md).
 */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Characters XML 1.0 does not allow at all (C0 controls but tab/newline/return,
// lone surrogates, U+FFFE/U+FFFF): no escape makes them legal, so they are dropped.
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** XML text and attribute values (RSS and Atom documents): the five XML entities, illegal characters dropped. */
export function escapeXml(text: string): string {
  return escapeUTF8(text.replace(XML_ILLEGAL, ''));
}
