import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import { escapeText } from '../../domain/html-escape.ts';
import type { Channel, Target } from './channel.ts';
import { errorDetail, type JsonPostDeps, postJson } from './json-post.ts';

// Google Chat space webhooks: a Message with a plain `text` (the notification)
// and one `cardsV2` card. Every event of an incident carries the same
// `thread.threadKey` and the URL asks for REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD,
// so the first event starts a thread and the rest reply in it (docs/alerts.md,
// "Threads"). Card text takes a small HTML subset: upstream text is escaped.

type GoogleChatTarget = Extract<Target, { channel: 'google_chat' }>;

const html = escapeText;
/** Top-level text uses `<url|label>` links and `*bold*`: its control characters are escaped the same way. */
const chatText = html;

/** Thread key of an incident: the same for all its events, unique per vendor (max 4000 characters); an incident that confirmed a signal continues the signal's. */
export const threadKey = (d: Pick<Delivery, 'vendor' | 'entityId' | 'threadEntity'>) => clip(`${d.vendor}:${d.threadEntity ?? d.entityId}`, 4000);

export function googleChatBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  const widgets: unknown[] = [
    { decoratedText: { topLabel: 'Status', text: html(clip(t.status || '-', 500)) } },
    { decoratedText: { topLabel: 'Impact', text: html(t.impact) } },
  ];
  if (t.components.length) widgets.push({ decoratedText: { topLabel: 'Components', text: html(clip(t.components.join(', '), 1000)), wrapText: true } });
  if (t.affects) widgets.push({ decoratedText: { topLabel: 'Services', text: html(clip(t.affects, 1000)), wrapText: true } });
  if (t.latest) widgets.push({ textParagraph: { text: html(clip(t.latest, 4000)) } });
  if (t.url) widgets.push({ buttonList: { buttons: [{ text: 'Open status page', onClick: { openLink: { url: t.url } } }] } });
  return {
    text: clip(chatText(`${t.headline}: ${t.title}${t.status ? ` (${t.status})` : ''}`), 4000),
    cardsV2: [
      {
        cardId: clip(`alert-${d.id}`, 255),
        card: {
          header: { title: clip(t.title, 200), subtitle: clip(t.headline, 200) },
          sections: [{ collapsible: false, widgets }],
        },
      },
    ],
    thread: { threadKey: threadKey(d) },
  };
}

/** The space URL with the reply option (key and token are kept as given). */
export function googleChatUrl(url: string): string {
  const u = new URL(url);
  u.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
  return u.toString();
}

export function googleChatChannel(o: JsonPostDeps): Channel<GoogleChatTarget> {
  return {
    async send(d, target, signal) {
      let url: string;
      try {
        url = googleChatUrl(target.url);
      } catch {
        return { ok: false, statusCode: null, error: 'invalid Google Chat webhook URL', retryAfterMs: null, permanent: true };
      }
      return postJson(o, url, googleChatBody(d), signal, { label: 'Google Chat', gone: [404], detail: errorDetail });
    },
  };
}
