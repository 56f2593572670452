import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanHtml } from '../../../../src/ingest/adapters/html-scan.ts';

// The stack-free HTML pass of the adapters that read a vendor's own page (src/ingest/adapters/html-scan.ts).
const events = (html: string) => {
  const out: string[] = [];
  scanHtml(html, {
    open: (name, a) =>
      out.push(
        `<${name}${Object.entries(a)
          .map(([k, v]) => ` ${k}=${v}`)
          .join('')}>`,
      ),
    close: (name) => out.push(`</${name}>`),
    text: (t) => out.push(t),
  });
  return out;
};

test('tags as written, void and self-closed elements closed at once, entities decoded once', () => {
  assert.deepEqual(events('<DIV Data-Id="a&amp;b"><br>x &amp;lt; &quot;y&quot;<i/></div>'), [
    '<div data-id=a&b>',
    '<br>',
    '</br>',
    'x &lt; "y"',
    '<i>',
    '</i>',
    '</div>',
  ]);
});

test('nothing is implied: unclosed tags stay open, a stray close tag is reported as written', () => {
  assert.deepEqual(events('<p><b>x</p></td>'), ['<p>', '<b>', 'x', '</p>', '</td>']);
  assert.deepEqual(events('<!-- <a> --><script>"<a>"</script>'), ['<script>', '"<a>"', '</script>']);
});
