// A stack-free pass over an HTML page for the adapters that read a vendor's own page (Okta,
// Fastly). htmlparser2's Parser keeps an element stack it grows with `unshift`, so a page of
// hundreds of thousands of unclosed tags costs quadratic time; its Tokenizer alone is one
// linear pass. Tags are reported as written (names lower-cased, attributes entity-decoded),
// void and self-closed elements closed at once; nothing is implied. The page is untrusted
// (docs/security.md): the caller bounds what it keeps.
import { decodeHTML } from 'entities';
import { Tokenizer } from 'htmlparser2';

export interface HtmlScanHandlers {
  open(name: string, attributes: Readonly<Record<string, string>>): void;
  close(name: string): void;
  text(text: string): void;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

export function scanHtml(html: string, h: HtmlScanHandlers): void {
  let tag = '';
  let attributes: Record<string, string> = {};
  let attribute = '';
  let value = '';
  let opened = false;
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        attributes = {};
        opened = true;
      },
      onattribname(start, end) {
        attribute = html.slice(start, end).toLowerCase();
        value = '';
      },
      onattribdata(start, end) {
        value += html.slice(start, end);
      },
      onattribentity() {},
      onattribend() {
        if (opened && !(attribute in attributes)) attributes[attribute] = decodeHTML(value);
      },
      onopentagend() {
        if (!opened) return;
        opened = false;
        h.open(tag, attributes);
        if (VOID.has(tag)) h.close(tag);
      },
      onselfclosingtag() {
        if (!opened) return;
        opened = false;
        h.open(tag, attributes);
        h.close(tag);
      },
      onclosetag(start, end) {
        h.close(html.slice(start, end).toLowerCase());
      },
      ontext(start, end) {
        h.text(decodeHTML(html.slice(start, end)));
      },
      ontextentity() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
}
