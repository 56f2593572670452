import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml, escapeText, escapeXml } from '../../../src/domain/html-escape.ts';

// The three escapes every page, feed, e-mail and chat message uses (src/domain/html-escape.ts).

const SAMPLE = `<a href="x" title='y'>\`Q&A\`</a>`;

test('escapeHtml: the five HTML specials and the backtick, as named or numeric references', () => {
  assert.equal(escapeHtml(SAMPLE), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&#96;Q&amp;A&#96;&lt;/a&gt;');
  assert.equal(escapeHtml(42), '42');
});

test('escapeText: only & < >, quotes kept (Slack mrkdwn, Google Chat, stored upstream HTML)', () => {
  assert.equal(escapeText(SAMPLE), `&lt;a href="x" title='y'&gt;\`Q&amp;A\`&lt;/a&gt;`);
  assert.equal(escapeText('a\u00a0b'), 'a\u00a0b');
});

test('escapeXml: the five XML entities, characters XML cannot carry dropped', () => {
  assert.equal(escapeXml(SAMPLE), '&lt;a href=&quot;x&quot; title=&apos;y&apos;&gt;`Q&amp;A`&lt;/a&gt;');
  assert.equal(escapeXml('a\u0000b\u0008c\td\ufffe\ud800e'), 'abc\tde');
  assert.equal(escapeXml('\ud83d\ude00'), '\ud83d\ude00');
});
