// HTML is built with the `html` tagged template: every interpolated value is
// escaped unless it is already `SafeHtml` produced by this module. Vendor text
// (titles, update bodies, summaries) is untrusted and only ever reaches a page
// through this escaping, so markup in it shows as text.

import { escapeHtml } from '../domain/html-escape.ts';

export { escapeHtml };

export class SafeHtml {
  readonly value: string;

  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export type Html = SafeHtml;
type Interpolated = SafeHtml | string | number | boolean | null | undefined | readonly Interpolated[];

function render(v: Interpolated): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(v);
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup we wrote ourselves (constants only; never pass data through this). */
export const trusted = (markup: string) => new SafeHtml(markup);

/** Joins fragments. */
/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the
 * line separators are escaped so the text can never close the element.
 */
export function jsonScript(id: string, data: unknown): SafeHtml {
  const text = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new SafeHtml(`<script type="application/json" id="${escapeHtml(id)}">${text}</script>`);
}

/** Only http(s) links reach an href; anything else (javascript:, data:) becomes null. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}
