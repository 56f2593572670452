import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { escapeHtml, html, jsonScript, safeUrl, trusted } from '../../../src/web/html.ts';

test('interpolated values are escaped, nested fragments are not escaped twice', () => {
  const title = '<script>alert(1)</script> & "quotes" \'single\' `tick`';
  const out = html`<p title="${title}">${title}</p>`.value;
  assert.equal(
    out,
    '<p title="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;single&#39; &#96;tick&#96;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;single&#39; &#96;tick&#96;</p>',
  );
  const inner = html`<b>${'a<b'}</b>`;
  assert.equal(html`<div>${inner}${[html`<i>1</i>`, '<2>']}${null}${undefined}${false}${0}</div>`.value, '<div><b>a&lt;b</b><i>1</i>&lt;2&gt;0</div>');
  assert.equal(html`${trusted('<hr>')}`.value, '<hr>');
});

test('no string can produce markup through interpolation (property)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const out = html`${s}`.value;
      assert.equal(/[<>"'`]/.test(out), false);
      // Every & starts one of our entities.
      assert.equal(/&(?!(amp|lt|gt|quot|#39|#96);)/.test(out), false);
      assert.equal(
        out
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&#96;/g, '`')
          .replace(/&amp;/g, '&'),
        s,
      );
    }),
  );
  assert.equal(escapeHtml('&amp;'), '&amp;amp;');
});

test('JSON blocks cannot close their script element', () => {
  const out = jsonScript('data', { t: '</script><script>alert(1)</script>', u: '\u2028<!--' }).value;
  assert.equal(out.indexOf('</script>'), out.length - '</script>'.length, 'only the closing tag of the element itself');
  assert.ok(!out.includes('<!--'));
  const body = out.slice(out.indexOf('>') + 1, -'</script>'.length);
  assert.deepEqual(JSON.parse(body), { t: '</script><script>alert(1)</script>', u: '\u2028<!--' });
});

test('only http(s) URLs become links', () => {
  assert.equal(safeUrl('https://status.example.com/x?a=1'), 'https://status.example.com/x?a=1');
  assert.equal(safeUrl('http://example.com'), 'http://example.com/');
  for (const bad of [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<b>',
    'vbscript:x',
    '//evil',
    '/relative',
    '',
    null,
    undefined,
  ]) {
    assert.equal(safeUrl(bad), null, String(bad));
  }
});
