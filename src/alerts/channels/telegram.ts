import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import { escapeText } from '../../domain/html-escape.ts';
import type { Channel, Target } from './channel.ts';
import { type JsonPostDeps, postJson } from './json-post.ts';

// Telegram Bot API `sendMessage` (docs/alerts.md "Telegram"): HTML parse mode, where only
// `&`, `<` and `>` need escaping, so vendor text cannot form tags; link previews off. The
// bot token is in the path: it is never logged (errors show Telegram's description only).

type TelegramTarget = Extract<Target, { channel: 'telegram' }>;

export function telegramBody(d: Delivery, chatId: string): Record<string, unknown> {
  const t = alertText(d);
  const lines = [`<b>${escapeText(t.headline)}</b>: ${escapeText(t.title)}`];
  const facts = [t.status && `Status: ${t.status}`, `Impact: ${t.impact}`, t.components.length ? `Components: ${clip(t.components.join(', '), 500)}` : '']
    .filter(Boolean)
    .join(' · ');
  lines.push(escapeText(facts));
  if (t.affects) lines.push(escapeText(`Services: ${clip(t.affects, 1000)}`));
  if (t.latest) lines.push(escapeText(clip(t.latest, 3000)));
  if (t.url) lines.push(`<a href="${escapeText(t.url).replace(/"/g, '&quot;')}">Status page</a>`);
  return {
    chat_id: /^-?[0-9]+$/.test(chatId) ? Number(chatId) : chatId,
    // 4096 characters after entities are parsed; the markup is short, so a cut keeps it whole.
    text: clip(lines.join('\n\n'), 4000),
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  };
}

/** Telegram's `description` of a refusal ("Bad Request: chat not found"). */
function telegramDetail(body: string): string {
  try {
    const j = JSON.parse(body) as { description?: unknown };
    if (typeof j.description === 'string') return j.description.slice(0, 200);
  } catch {
    /* not JSON */
  }
  return '';
}

export function telegramChannel(o: JsonPostDeps & { apiUrl: string }): Channel<TelegramTarget> {
  return {
    send(d, target, signal) {
      return postJson(o, `${o.apiUrl.replace(/\/+$/, '')}/bot${target.botToken}/sendMessage`, telegramBody(d, target.chatId), signal, {
        label: 'Telegram',
        detail: telegramDetail,
      });
    },
  };
}
